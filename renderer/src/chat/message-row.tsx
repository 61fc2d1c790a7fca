import { For, Match, Show, Switch } from 'solid-js';
import { McpInteractionCard } from '../approvals/mcp-interaction-card.tsx';
import type { ChatState, Row } from '../store/app-state.ts';
import { MarkdownView } from '../ui/markdown-view.tsx';
import { useApp } from '../store/app-context.tsx';
import { ToolCallBlock } from './tool-call-block.tsx';
import { CollapsibleText } from './collapsible-text.tsx';
import { charCount } from '../approvals/fold-value.ts';

/** One row of the chat. Reads only its own slice of the store, so other rows stay untouched. */
export function MessageRow(props: { row: Row; chat: ChatState }) {
  return (
    <div class={`message-row ${props.row.kind}`} data-testid={`row-${props.row.kind}`}>
      <Switch>
        <Match when={props.row.kind === 'user' && props.row}>
          {(row) => (
            <div class="bubble user-bubble">
              <CollapsibleText text={row().content} />
              <Show when={row().varRefs}>
                <div class="row wrap var-chips user-var-chips" data-testid="user-var-refs">
                  <For each={row().varRefs}>
                    {(ref) => (
                      <span class="var-chip" title="Expanded into the message the model got">
                        <code>{ref.name}</code> · {charCount(ref.chars)}
                      </span>
                    )}
                  </For>
                </div>
              </Show>
            </div>
          )}
        </Match>
        <Match when={props.row.kind === 'assistant' && props.row}>
          {(row) => (
            <div class="assistant-body" data-testid="assistant-message" data-streaming={row().streaming}>
              <Show when={row().reasoning}>
                <details class="reasoning small muted">
                  <summary>Reasoning</summary>
                  <div class="plain-text">{row().reasoning}</div>
                </details>
              </Show>
              <Show when={row().content || row().streaming}>
                <MarkdownView text={row().content} streaming={row().streaming} class={row().streaming ? 'streaming' : ''} />
              </Show>
              <For each={row().callIds}>{(callId) => <CallBlock chat={props.chat} callId={callId} />}</For>
              <Show when={row().error}>
                <div class="small error-text">{row().error!.message}</div>
              </Show>
              <Show when={row().stopReason === 'aborted'}>
                <div class="small muted">Stopped.</div>
              </Show>
            </div>
          )}
        </Match>
        <Match when={props.row.kind === 'tool' && props.row}>
          {(row) => <CallBlock chat={props.chat} callId={row().callId} />}
        </Match>
        <Match when={props.row.kind === 'notice' && props.row}>
          {(row) => <div class={`notice ${row().tone}`}>{row().text}</div>}
        </Match>
      </Switch>
    </div>
  );
}

function CallBlock(props: { chat: ChatState; callId: string }) {
  const app = useApp();
  const call = () => props.chat.toolCalls[props.callId];
  const approvals = () =>
    props.chat.approvalOrder.map((id) => props.chat.approvals[id]!).filter((r) => r && r.callId === props.callId);
  const tool = () => {
    const name = call()?.toolName;
    for (const group of app.state.tools.groups) for (const t of group.tools) if (t.name === name || t.modelName === name) return t;
    return undefined;
  };
  const sessionId = () => props.chat.sessionId;
  const mcpAsks = () => props.chat.mcpAsks.filter((r) => r.callId === props.callId);
  return (
    <Show when={call()}>
      {(c) => (
        <>
        <ToolCallBlock
          call={c()}
          approvals={approvals()}
          onAnswer={(requestId, decision) => void app.answer(sessionId(), requestId, decision)}
          onCancel={() => void app.cancelToolCall(sessionId(), props.callId)}
          onOpenVariable={(name) => app.openVariable(name)}
          {...(tool() ? { tool: tool()! } : {})}
          onRerun={(args) => void app.rerunToolCall(sessionId(), props.callId, args)}
          checkArgs={(args) => app.api.checkToolArgs({ sessionId: sessionId(), name: c().toolName, args })}
          busy={props.chat.running}
          reruns={<For each={c().reruns}>{(id) => <CallBlock chat={props.chat} callId={id} />}</For>}
        />
        {/* What an MCP server asks during this call (issue 12). */}
        <For each={mcpAsks()}>
          {(request) => <McpInteractionCard request={request} onAnswer={(answer) => void app.guard(() => app.api.answerMcpInteraction({ sessionId: sessionId(), requestId: request.id, answer }))} />}
        </For>
        </>
      )}
    </Show>
  );
}
