import { For, Match, Show, Switch, createSignal } from 'solid-js';
import { McpInteractionCard } from '../approvals/mcp-interaction-card.tsx';
import type { ChatState, Row } from '../store/app-state.ts';
import { MarkdownView } from '../ui/markdown-view.tsx';
import { useApp } from '../store/app-context.tsx';
import { ToolCallBlock } from './tool-calls/tool-call-block.tsx';
import { McpAppBlock } from '../apps/mcp-app-block.tsx';
import { CollapsibleText } from './collapsible-text.tsx';
import { charCount } from '../approvals/fold-value.ts';
import { AssistantMeta, MessageActions, MessageEdit } from './message-actions.tsx';
import { AttachmentChips } from './composer/attachment-chips.tsx';
import { InterruptedNotice } from './interrupted-notice.tsx';

/** One row of the chat. Reads only its own slice of the store, so other rows stay untouched. */
export function MessageRow(props: { row: Row; chat: ChatState }) {
  const app = useApp();
  const [editing, setEditing] = createSignal(false);
  return (
    <div class={`message-row ${props.row.kind}`} data-testid={`row-${props.row.kind}`}>
      <Switch>
        <Match when={props.row.kind === 'user' && props.row}>
          {(row) => (
            <Show when={!editing()} fallback={<MessageEdit messageId={row().id} text={row().content} onDone={() => setEditing(false)} />}>
              <div class="bubble user-bubble">
                <Show when={row().prompt}>
                  {/* An MCP prompt's `/server:prompt …`, or a scheduled run's label (its time). */}
                  <div class="small muted" data-testid="prompt-source" title={row().prompt!.startsWith('/') ? 'The text an MCP prompt returned' : 'Sent by a schedule, with nobody watching'}>
                    <Show when={row().prompt!.startsWith('/')} fallback={row().prompt}>
                      from <code>{row().prompt}</code>
                    </Show>
                  </div>
                </Show>
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
                <AttachmentChips
                  items={row().attachments ?? []}
                  onOpenVariable={(name) => app.openVariable(name)}
                  loadImage={(stored) => app.api.readToolImage({ sessionId: props.chat.sessionId, stored })}
                />
              </div>
              {/* Hidden while a turn runs (they would wait anyway): Tab from the box reaches the approval cards first. */}
              <Show when={!props.chat.running}>
                <MessageActions messageId={row().id} kind="user" text={row().content} running={props.chat.running} branch={row().branch} onEdit={() => setEditing(true)} />
              </Show>
            </Show>
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
                <div class="small error-text" role="alert" data-testid="message-error">
                  {row().error!.message}{' '}
                  <button type="button" class="link" disabled={props.chat.running} onClick={() => void app.regenerate(row().id)}>
                    Retry
                  </button>
                </div>
              </Show>
              <Show when={row().stopReason === 'aborted'}>
                <div class="small muted">Stopped.</div>
              </Show>
              <Show when={!row().streaming}>
                <AssistantMeta model={row().model} usage={row().usage} timing={row().timing} />
              </Show>
              <Show when={!row().streaming && !props.chat.running}>
                <MessageActions messageId={row().id} kind="assistant" text={row().content} running={props.chat.running} branch={row().branch} />
              </Show>
            </div>
          )}
        </Match>
        <Match when={props.row.kind === 'tool' && props.row}>
          {(row) => <CallBlock chat={props.chat} callId={row().callId} />}
        </Match>
        <Match when={props.row.kind === 'interrupted' && props.row}>
          {(row) => <InterruptedNotice interruption={row().interruption} running={props.chat.running} />}
        </Match>
        <Match when={props.row.kind === 'notice' && props.row}>
          {(row) => (
            <div class={`notice ${row().tone}`} data-testid="turn-error">
              {row().text}
              <Show when={row().retryFrom}>
                {' '}
                <button type="button" class="link" disabled={props.chat.running} onClick={() => void app.regenerate(row().retryFrom!)}>
                  Retry
                </button>
              </Show>
            </div>
          )}
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
          loadImage={(stored) => app.api.readToolImage({ sessionId: sessionId(), stored })}
          busy={props.chat.running}
          reruns={<For each={c().reruns}>{(id) => <CallBlock chat={props.chat} callId={id} />}</For>}
          app={
            <Show when={c().result?.app && c().status === 'done' && !c().fromApp}>
              <McpAppBlock sessionId={sessionId()} callId={props.callId} fallbackText={c().result?.formattedText ?? c().result?.finalText ?? ''} />
            </Show>
          }
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
