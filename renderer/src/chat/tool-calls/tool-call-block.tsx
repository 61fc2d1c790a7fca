import { For, Show, createSignal, onCleanup, createEffect, type JSX } from 'solid-js';
import { ToolResultImages, type LoadToolImage } from './tool-result-images.tsx';
import type { ApprovalDecision, ApprovalRequest, ToolInfo } from '../../../../shared/tools.ts';
import { isReadOnlyTool } from '../../../../shared/tool-selection.ts';
import { ArgsEditor, type EditedArgs } from '../../approvals/args-editor.tsx';
import { ToolInspectPanel } from './tool-inspect-panel.tsx';
import { returnFocusAfterClose } from '../../ui/return-focus.ts';
import type { ToolCallState } from '../../store/app-state.ts';
import { compressArgs, formatDuration } from '../../ui/format.ts';
import { ExecutionApprovalCard } from '../../approvals/execution-approval-card.tsx';
import { ResultApprovalCard } from '../../approvals/result-approval-card.tsx';
import './tool-call-block.css';
import { Icon } from '../../ui/icons.tsx';
import { appMessages, LOG_LINES } from '../../apps/app-message-log.ts';

const STATUS_TEXT: Record<ToolCallState['status'], string> = {
  pending: 'queued',
  approval: 'waiting for approval',
  running: 'running',
  done: 'done',
  error: 'error',
  rejected: 'rejected',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};
const STATUS_TONE: Record<ToolCallState['status'], string> = {
  pending: '',
  approval: 'warn',
  running: 'accent',
  done: 'ok',
  error: 'err',
  rejected: 'err',
  cancelled: '',
  interrupted: 'warn',
};

/** One tool call in the chat: header, status, streamed output, folded result, inline approvals. */
export function ToolCallBlock(props: {
  call: ToolCallState;
  approvals: ApprovalRequest[];
  onAnswer: (requestId: string, decision: ApprovalDecision) => void;
  /** Cancels this call only (not the turn). */
  onCancel: () => void;
  onOpenVariable: (name: string) => void;
  /** The tool as listed (its schema for editing, whether it only reads). */
  tool?: ToolInfo;
  /** "Run again" with the same arguments, or edited ones. Absent: no Run again. */
  onRerun?: (args?: Record<string, unknown>) => void;
  /** Validates arguments in the runtime (edit forms). */
  checkArgs?: (args: Record<string, unknown>) => Promise<{ ok: boolean; message?: string }>;
  /** A turn or run is going on in the session: Run again waits. */
  busy?: boolean;
  /** The "Run again" calls of this one, shown under it. */
  reruns?: JSX.Element;
  /** Reads an image the session kept of this call's result. */
  loadImage?: LoadToolImage;
  /** The MCP App the result names (shown under the result, above the calls it made). */
  app?: JSX.Element;
}) {
  const [inspecting, setInspecting] = createSignal(false);
  let inspectButton: HTMLButtonElement | undefined;
  const [rerunning, setRerunning] = createSignal(false);
  const [editingRerun, setEditingRerun] = createSignal(false);
  const [rerunArgs, setRerunArgs] = createSignal<EditedArgs | null>(null);
  const readOnly = () => (props.tool ? isReadOnlyTool(props.tool) : false);
  const startRerun = () => {
    const edited = rerunArgs();
    props.onRerun?.(editingRerun() && edited?.ok ? edited.args : undefined);
    setRerunning(false);
    setEditingRerun(false);
    setRerunArgs(null);
  };
  const approvalWait = () => props.call.result?.inspection?.timings.approvalMs;
  const [now, setNow] = createSignal(Date.now());
  createEffect(() => {
    if (props.call.status !== 'running') return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    onCleanup(() => clearInterval(timer));
  });
  const elapsed = () => {
    const start = props.call.startedAt;
    if (start === undefined) return undefined;
    const end = props.call.status === 'running' ? Math.max(now(), start) : (props.call.finishedAt ?? now());
    // The badge is the running time; time spent waiting for approval is shown apart.
    const timings = props.call.result?.inspection?.timings;
    return timings ? timings.runningMs : (props.call.result?.durationMs ?? end - start);
  };
  /** What the user reads: the result, or why there is none (the model's own wording stays in Inspect). */
  const resultText = () => {
    const r = props.call.result;
    if (!r) return '';
    if (r.status === 'SUCCESS') return r.formattedText ?? r.finalText;
    // A rejection has its own "Rejected: reason" line; the text the model got about it is in Inspect.
    if (r.status === 'EXECUTION_REJECTED' || r.status === 'RESULT_REJECTED') return '';
    return r.error ?? r.finalText;
  };
  // The header shows what ran: the user's edited arguments when there are some (issue 25 §6).
  const edited = () => props.call.result?.editedArgs;
  const [showModelArgs, setShowModelArgs] = createSignal(false);
  const args = () => (edited() ? compressArgs(edited()!) : (props.call.summary ?? compressArgs(props.call.args)));

  return (
    <div class={`tool-call status-${props.call.status}`} data-testid="tool-call" data-call-id={props.call.callId} data-status={props.call.status}>
      <div class="tool-call-head row">
        <span class="tool-icon" aria-hidden="true">
          <Icon name="gear" />
        </span>
        <code class="tool-name">{props.call.toolName}</code>
        <Show when={props.call.fromApp}>
          <span class="badge" data-testid="from-app" title="The app shown in the call above asked for this call">
            from the app
          </span>
        </Show>
        <Show when={props.call.groupName}>
          <span class="muted small">{props.call.groupName}</span>
        </Show>
        <span class="tool-args grow mono muted" title={JSON.stringify(edited() ?? props.call.args, null, 2)} data-testid="tool-args">
          {args()}
        </span>
        <Show when={edited()}>
          <button
            type="button"
            class="badge accent edited-badge"
            aria-expanded={showModelArgs()}
            title="You changed the arguments before approving; this shows the model's"
            onClick={() => setShowModelArgs(!showModelArgs())}
            data-testid="edited-badge"
          >
            edited
          </button>
        </Show>
        <span class={`badge ${STATUS_TONE[props.call.status]}`} data-testid="tool-status">
          {STATUS_TEXT[props.call.status]}
          <Show when={elapsed() !== undefined && props.call.status !== 'approval'}> · {formatDuration(elapsed()!)}</Show>
        </span>
        <Show when={(approvalWait() ?? 0) >= 1}>
          <span class="muted small" data-testid="approval-wait" title="Time spent waiting for your approval, not part of the running time">
            waited {formatDuration(approvalWait()!)} for approval
          </span>
        </Show>
        <Show when={props.call.status === 'running'}>
          <button type="button" class="small" onClick={() => props.onCancel()} title="Stops this tool call; the model is told it was cancelled">
            Cancel
          </button>
        </Show>
      </div>

      <Show when={edited() && showModelArgs()}>
        <div class="small muted mono model-args" data-testid="model-args">
          The model asked for: {compressArgs(props.call.args)}
        </div>
      </Show>

      {/* A cancelled call keeps the lines it had streamed. */}
      <Show when={props.call.partial && (!props.call.result || props.call.status === 'cancelled')}>
        <pre class="plain tool-partial" data-testid="tool-partial">{props.call.partial}</pre>
      </Show>

      <For each={props.approvals}>
        {(request, index) =>
          request.type === 'execution' ? (
            <ExecutionApprovalCard
              request={request}
              autofocus={index() === 0}
              onAnswer={(d) => props.onAnswer(request.id, d)}
              {...(props.tool ? { schema: props.tool.parameters } : {})}
              {...(props.checkArgs ? { checkArgs: props.checkArgs } : {})}
            />
          ) : (
            <ResultApprovalCard request={request} autofocus={index() === 0} onAnswer={(d) => props.onAnswer(request.id, d)} />
          )
        }
      </For>

      <Show when={props.call.result}>
        {(result) => (
          <>
            <Show when={result().isTruncated && result().cacheVarResult}>
              <div class="row small truncated-row">
                <span class="badge warn" data-testid="truncated-badge">
                  truncated · {result().cacheVarResult}
                </span>
                <button type="button" class="link" onClick={() => props.onOpenVariable(result().cacheVarResult!)}>
                  Open full result
                </button>
              </div>
            </Show>
            <Show when={result().rejectReason}>
              <div class="small error-text" data-testid="reject-reason">
                {/^(Denied by |Rejected\b)/.test(result().rejectReason ?? '') ? result().rejectReason : `Rejected: ${result().rejectReason}`}
              </div>
            </Show>
            <ToolResultImages result={result()} toolName={props.call.toolName} {...(props.loadImage ? { load: props.loadImage } : {})} />
            {/* Notes from the runtime about this call (sandbox limits, a fallback taken): for the user, not the model. */}
            <Show when={result().warnings?.length}>
              <ul class="small warn-text tool-warnings" data-testid="tool-warnings">
                <For each={result().warnings}>{(warning) => <li>{warning}</li>}</For>
              </ul>
            </Show>
            <div class="row small tool-actions">
              <button type="button" class="link small" ref={inspectButton} aria-expanded={inspecting()} onClick={() => setInspecting(!inspecting())}>
                Inspect
              </button>
              <Show when={props.onRerun && !props.call.rerunOf && !props.call.fromApp}>
                <button type="button" class="link small" aria-expanded={rerunning()} disabled={props.busy} onClick={() => setRerunning(!rerunning())}>
                  Run again
                </button>
              </Show>
            </div>
            <Show when={rerunning()}>
              <div class="rerun-bar stack" data-testid="rerun-bar">
                <Show when={!readOnly()}>
                  <div class="small warn-text" data-testid="rerun-warning">
                    {props.call.toolName} is not marked read-only, and its first run already happened: running it again repeats what it does.
                  </div>
                </Show>
                <Show when={editingRerun() && props.checkArgs}>
                  {(check) => <ArgsEditor schema={props.tool?.parameters} args={props.call.args} check={check()} onChange={setRerunArgs} />}
                </Show>
                <div class="row">
                  <button type="button" class="primary small" disabled={props.busy || (editingRerun() && rerunArgs()?.ok !== true)} onClick={startRerun}>
                    {editingRerun() ? 'Run with these arguments' : 'Run with the same arguments'}
                  </button>
                  <Show when={props.checkArgs && !editingRerun()}>
                    <button type="button" class="small" onClick={() => setEditingRerun(true)}>
                      Edit arguments
                    </button>
                  </Show>
                  <button type="button" class="link small" onClick={() => setRerunning(false)}>
                    Cancel
                  </button>
                </div>
              </div>
            </Show>
            <Show when={inspecting()}>
              <ToolInspectPanel
                args={props.call.args}
                result={result()}
                onClose={() => {
                  returnFocusAfterClose(inspectButton?.closest('[data-testid="tool-call"]')?.querySelector('[data-testid="inspect-panel"]'), () => inspectButton);
                  setInspecting(false);
                }}
              />
              <Show when={result().app && !props.call.fromApp}>
                <div class="inspect-part" data-testid="inspect-app-messages">
                  <h4>The app's messages (the last {LOG_LINES})</h4>
                  <pre class="plain">{appMessages(props.call.callId).join('\n') || '(none yet)'}</pre>
                </div>
              </Show>
            </Show>
            <details class="tool-result" data-testid="tool-result">
              <summary class="small muted">
                {result().status === 'SUCCESS' ? 'Result' : result().status.toLowerCase().replace('_', ' ')} ·{' '}
                {resultText().length} characters
              </summary>
              <pre class="plain">{resultText()}</pre>
              <Show when={result().logs}>
                <div class="small muted">Logs (not sent to the model)</div>
                <pre class="plain">{result().logs}</pre>
              </Show>
            </details>
          </>
        )}
      </Show>
      {props.app}
      <Show when={props.call.reruns.length > 0}>
        <div class="tool-reruns" data-testid="tool-reruns">
          {props.reruns}
        </div>
      </Show>
    </div>
  );
}
