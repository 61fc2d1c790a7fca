import { Show, createSignal } from 'solid-js';
import type { ToolExecuteResult, ToolInfo } from '../../../shared/tools.ts';
import { useApp } from '../store/app-context.tsx';
import { SchemaForm } from './schema-form.tsx';

/** Runs a tool by hand, through the session's executor (approvals, variables, $VAR_REF apply). */
export function ToolRunForm(props: { tool: ToolInfo; groupEnabled?: boolean }) {
  const app = useApp();
  const [busy, setBusy] = createSignal(false);
  const [result, setResult] = createSignal<ToolExecuteResult | null>(null);
  // The run's call id is not known until it ends; but while it runs the session refuses other
  // turns, so the one new call of this tool in the session is ours.
  let runSession: string | null = null;
  let callsBefore = new Set<string>();
  const runningCallId = () => {
    const calls = busy() && runSession ? app.state.chats[runSession]?.toolCalls : undefined;
    if (!calls) return undefined;
    return Object.values(calls).find((c) => !callsBefore.has(c.callId) && c.toolName === props.tool.name && !c.result)?.callId;
  };

  const run = async (args: Record<string, unknown>) => {
    // A new chat is stored now: the run goes into its history.
    const sessionId = await app.ensureSession();
    if (!sessionId) return app.setError('Open or start a chat first: the run goes into its history.');
    runSession = sessionId;
    callsBefore = new Set(Object.keys(app.state.chats[sessionId]?.toolCalls ?? {}));
    setBusy(true);
    setResult(null);
    setResult((await app.guard(() => app.api.runTool({ sessionId, name: props.tool.name, args }))) ?? null);
    setBusy(false);
  };

  return (
    <div class="tool-run stack">
      <Show when={!props.tool.enabled || props.groupEnabled === false}>
        <p class="small error-text" data-testid="run-refused-note">
          {props.tool.enabled
            ? `Its group ${props.tool.groupName} is switched off, so a run is refused. Switch it on in Settings → Tool groups.`
            : 'This tool is switched off in Settings → Tool groups, so a run is refused.'}
        </p>
      </Show>
      <SchemaForm schema={props.tool.parameters} busy={busy()} onSubmit={(args) => void run(args)} />
      <Show when={runningCallId()}>
        {(callId) => (
          <div class="row">
            <button type="button" class="small" data-testid="cancel-run" onClick={() => void app.cancelToolCall(runSession!, callId())}>
              Cancel run
            </button>
          </div>
        )}
      </Show>
      <Show when={result()}>
        {(r) => (
          <div class="stack" data-testid="run-result">
            <div class="row small">
              <span class={`badge ${r().status === 'SUCCESS' ? 'ok' : 'err'}`}>{r().status}</span>
              <Show when={r().cacheVarResult}>
                <button type="button" class="link" onClick={() => app.openVariable(r().cacheVarResult!)}>
                  {r().cacheVarResult}
                </button>
              </Show>
            </div>
            <pre class="plain">{r().formattedText ?? r().finalText}</pre>
          </div>
        )}
      </Show>
    </div>
  );
}
