import { For, Show, createSignal, type JSX } from 'solid-js';
import type { ToolExecuteResult } from '../../../../shared/tools.ts';
import { copyText } from '../../ui/copy-text.ts';
import { formatDuration } from '../../ui/format.ts';
import { commandLine } from '../composer/command-line.ts';
import { mcpAnswerText, mcpLogText, mcpRequestText, mcpServerText } from './inspect-mcp-text.ts';
import { useLayer } from '../../ui/layers.ts';

/** One part of the panel: a heading, its text, and a Copy button for exactly that text. */
function Part(props: { title: string; text: string; testId: string; children?: JSX.Element }) {
  const [copied, setCopied] = createSignal(false);
  const copy = async () => {
    setCopied(await copyText(props.text));
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <section class="inspect-part" data-testid={props.testId}>
      <div class="row">
        <h4 class="grow">{props.title}</h4>
        <button type="button" class="link small" aria-label={`Copy ${props.title.toLowerCase()}`} onClick={() => void copy()}>
          {copied() ? 'Copied' : 'Copy'}
        </button>
      </div>
      {props.children ?? <pre class="plain">{props.text}</pre>}
    </section>
  );
}

/** Bounded output with what was not kept said at its end. */
const withCut = (text: string, cut: number | undefined) => text + (cut ? `\n… [${cut} more characters not kept]` : '');

/**
 * "Inspect": what was sent and received, exactly. The resolved arguments, each process's command
 * line, working folder, exit code and output (an MCP call's request, answer and server log lines;
 * a module tool's host and output), the time each phase took, the text the model got and the
 * variables the call read and wrote. Copy buttons per part. Esc closes it (a layer, like a menu).
 */
export function ToolInspectPanel(props: { args: Record<string, unknown>; result: ToolExecuteResult; onClose: () => void }) {
  useLayer(() => props.onClose());
  const inspection = () => props.result.inspection;
  const resolved = () => JSON.stringify(inspection()?.resolvedArgs ?? props.result.editedArgs ?? props.args, null, 2);
  const timings = () => {
    const t = inspection()?.timings;
    const mcp = inspection()?.mcp;
    if (!t) return props.result.durationMs !== undefined ? `total ${formatDuration(props.result.durationMs)}` : 'not recorded';
    return [
      `queued ${formatDuration(t.queuedMs)}`,
      `waiting for approval ${formatDuration(t.approvalMs)}`,
      `running ${formatDuration(t.runningMs)}${mcp ? ` (starting the server ${formatDuration(mcp.startMs)}, MCP round trip ${formatDuration(mcp.roundTripMs)})` : ''}`,
      `formatting ${formatDuration(t.formattingMs)}`,
      ...(t.resultApprovalMs > 0.5 ? [`waiting for result approval ${formatDuration(t.resultApprovalMs)}`] : []),
    ].join(' · ');
  };
  const variables = () =>
    [
      ...(inspection()?.varRefs ?? []).map((r) => `read ${r.name} (argument ${r.arg}${r.chars >= 0 ? `, ${r.chars} characters` : ''})`),
      ...(props.result.cacheVarResult ? [`wrote ${props.result.cacheVarResult}`] : []),
      ...(props.result.cacheVarArgs ? [`wrote ${props.result.cacheVarArgs}`] : []),
    ].join('\n');
  const outcome = () => {
    const r = props.result;
    const status = r.cancelled ? `${r.status} (cancelled by the user)` : r.status;
    return r.error ? `${status}: ${r.error}` : status;
  };

  return (
    <div class="inspect-panel stack" data-testid="inspect-panel" role="region" aria-label={`Inspect ${props.result.toolName ?? 'tool call'}`}>
      <Part title="Resolved arguments" text={resolved()} testId="inspect-args" />
      <Show when={props.result.editedArgs}>
        <Part title="Arguments the model sent" text={JSON.stringify(props.args, null, 2)} testId="inspect-original-args" />
      </Show>
      <For each={inspection()?.processes ?? []}>
        {(p, i) => (
          <>
            <Part title={`Command line${i() > 0 ? ` ${i() + 1}` : ''}`} text={commandLine(p.command, p.args)} testId="inspect-command" />
            <Part title="Working folder" text={p.cwd} testId="inspect-cwd" />
            <Part
              title="Exit code"
              text={`${p.exitCode === null ? 'none' : p.exitCode}${p.signal ? ` (signal ${p.signal})` : ''}${p.timedOut ? ' · timed out' : ''}${p.aborted ? ' · stopped' : ''} · ${p.sandboxed ? 'sandboxed' : 'not sandboxed'} · ${formatDuration(p.durationMs)}${p.preloaded?.length ? ` · preloaded: ${p.preloaded.join(', ')}` : ''}`}
              testId="inspect-exit"
            />
            <Part title="Standard output" text={withCut(p.stdout, p.cut?.stdout)} testId="inspect-stdout" />
            <Show when={p.stderr}>
              <Part title="Standard error" text={withCut(p.stderr, p.cut?.stderr)} testId="inspect-stderr" />
            </Show>
          </>
        )}
      </For>
      <Show when={inspection()?.mcp}>
        {(mcp) => (
          <>
            <Part title="MCP request" text={mcpRequestText(mcp())} testId="inspect-mcp-request" />
            <Part title="MCP answer" text={mcpAnswerText(mcp())} testId="inspect-mcp-answer" />
            <Part title="MCP server" text={mcpServerText(mcp())} testId="inspect-mcp-server" />
            <Part title="Server log lines" text={mcpLogText(mcp())} testId="inspect-mcp-log" />
          </>
        )}
      </Show>
      <Show when={inspection()?.toolHost}>
        {(host) => (
          <>
            <Part title="Tool host" text={`pid ${host().pid} · ${host().sandboxed ? 'sandboxed' : 'not sandboxed'}\n${commandLine(host().command, host().args)}`} testId="inspect-host" />
            <Part title="Tool host working folder" text={host().cwd} testId="inspect-host-cwd" />
            <Part title="Module output" text={withCut(host().stdout, host().cut?.stdout) || 'Nothing printed during this call.'} testId="inspect-host-stdout" />
            <Show when={host().stderr}>
              <Part title="Module error output" text={withCut(host().stderr, host().cut?.stderr)} testId="inspect-host-stderr" />
            </Show>
          </>
        )}
      </Show>
      <Show when={(inspection()?.processes.length ?? 0) === 0}>
        <Part title="Outcome" text={outcome()} testId="inspect-outcome" />
        <Show when={props.result.logs}>
          <Part title="Log lines" text={props.result.logs!} testId="inspect-logs" />
        </Show>
      </Show>
      <Part title="Durations" text={timings()} testId="inspect-durations" />
      <Part title="Text the model got" text={props.result.finalText} testId="inspect-model-text" />
      <Show when={variables()}>
        <Part title="Variables" text={variables()} testId="inspect-variables" />
      </Show>
    </div>
  );
}
