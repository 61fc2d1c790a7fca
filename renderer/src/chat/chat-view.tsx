import { Show, createSignal } from 'solid-js';
import { useApp } from '../store/app-context.tsx';
import { VirtualList } from '../ui/virtual-list.tsx';
import type { ChatState } from '../store/app-state.ts';
import { MessageRow } from './message-row.tsx';
import { Composer } from './composer/composer.tsx';
import { NEW_CHAT_DRAFT } from './composer/composer-draft.ts';
import { FirstRunNotice } from './first-run-notice.tsx';
import { ChatHeader, chatModel } from './chat-header.tsx';
import { ToolSelectionPanel } from './tool-calls/tool-selection-panel.tsx';
import { ToolToasts } from './tool-calls/tool-toasts.tsx';
import { effectiveSelection, selectedTools } from './tool-calls/tool-selection.ts';
import { returnFocusAfterClose } from '../ui/return-focus.ts';
import './chat.css';

export function ChatView(props: { onOpenSettings: (section?: string) => void; onNewTool: () => void; composerRef: (el: HTMLTextAreaElement) => void; hidden?: boolean }) {
  const app = useApp();
  const chat = () => (app.state.activeSessionId ? app.state.chats[app.state.activeSessionId] : undefined);
  const noProvider = () => app.state.settings !== null && (app.state.settings.providers.length === 0 || !app.state.settings.activeProviderId);
  const send = (text: string, attachments: Parameters<typeof app.send>[1]) => app.send(text, attachments);
  const model = (c?: ChatState) => chatModel(c?.chat ?? app.state.draft?.chat ?? {}, app.state.settings, !c).model;
  const [choosing, setChoosing] = createSignal(false);
  let toolsButton: HTMLButtonElement | undefined;
  /** The open chat's choice of tools, or the new chat's (kept until its session is stored). */
  /** The chat's own settings (the draft's before its first message). */
  const ownChat = () => chat()?.chat ?? app.state.draft?.chat ?? {};
  const selection = () => (chat() ? chat()!.toolSelection : (app.state.draft?.toolSelection ?? null));
  const selectedCount = () => effectiveSelection(app.state.tools.groups, selection()).tools.length;
  // Prompts and resources come from switched-on MCP servers: with none, no menu entries, no button.
  const mcpOn = () => app.state.tools.groups.some((g) => g.enabled && g.tools.some((t) => t.format === 'mcp'));
  const loadPrompts = async () => (await app.api.listMcpPrompts()).items;
  const resources = { list: () => app.api.listMcpResources(), read: (server: string, uri: string) => app.api.readMcpResource({ server, uri }) };
  const lookupVariable = async (name: string) => {
    const id = chat()?.sessionId;
    if (!id) return null;
    try {
      return (await app.api.readVariable({ sessionId: id, name, start: 0, length: 0 })).total;
    } catch {
      return null;
    }
  };

  return (
    <section class="chat" classList={{ 'chat-hidden': !!props.hidden }} aria-label="Chat">
      <Show when={noProvider()}>
        <FirstRunNotice onOpenSettings={props.onOpenSettings} onNewTool={props.onNewTool} />
      </Show>
      <Show
        when={chat()}
        keyed
        fallback={
          <Show when={app.state.draft} fallback={<div class="chat-empty muted">Open or create a session.</div>}>
            {(draft) => (
              <>
                <ChatHeader draftChat={draft().chat} />
                <div class="chat-empty muted grow" data-testid="chat-draft">
                  Say hello, or run a tool with /tool_name {'{json}'}.
                </div>
              </>
            )}
          </Show>
        }
      >
        {(c: ChatState) => (
          <>
            <ChatHeader chat={c} />
            <Show when={c.rows.length === 0}>
              <div class="chat-empty muted">Say hello, or run a tool with /tool_name {'{json}'}.</div>
            </Show>
            {/* Sending a message brings the view back to the bottom, wherever it was scrolled. */}
            <VirtualList items={c.rows} key={(row) => row.id} class="messages" followOutput pinKey={c.rows.findLast((row) => row.kind === 'user')?.id}>
              {(row) => <MessageRow row={row} chat={c} />}
            </VirtualList>
            <ToolToasts toasts={c.toasts} onDismiss={(id) => app.dismissToast(c.sessionId, id)} />
          </>
        )}
      </Show>
      {/* One box for every chat: a reconnect that reloads the chat does not lose what it holds. */}
      <Show when={chat() || app.state.draft}>
        <div class="composer-anchor">
          <Show when={choosing()}>
            <ToolSelectionPanel
              groups={app.state.tools.groups}
              onOpenSettings={props.onOpenSettings}
              onNewTool={props.onNewTool}
              selection={selection()}
              onChange={(next) => void app.setToolSelection(chat()?.sessionId ?? null, next)}
              skillsOff={ownChat().skillsOff ?? []}
              onSkillsOffChange={(off) => {
                const { skillsOff: _old, ...rest } = ownChat();
                void app.setChatSettings(off.length ? { ...rest, skillsOff: off } : rest);
              }}
              onClose={() => {
                returnFocusAfterClose(document.querySelector('[data-testid="tool-selection"]'), () => toolsButton);
                setChoosing(false);
              }}
            />
          </Show>
          <Composer
            running={chat()?.running ?? false}
            onSend={send}
            onAbort={() => void app.abort()}
            ref={props.composerRef}
            sendState={app.sendState()}
            queued={app.queued(chat()?.sessionId ?? null)}
            queueHeld={app.queueHeld(chat()?.sessionId ?? null)}
            onSendQueued={() => chat() && app.sendQueued(chat()!.sessionId)}
            onUnqueue={(id) => (chat() ? app.unqueue(chat()!.sessionId, id)?.text : undefined)}
            model={model(chat())}
            draftKey={chat()?.sessionId ?? NEW_CHAT_DRAFT}
            tools={selectedTools(app.state.tools.groups, selection())}
            knownToolNames={app.state.tools.groups.flatMap((g) => g.tools.flatMap((t) => [t.name, t.modelName]))}
            toolSets={(app.state.settings?.toolSets ?? []).map((s) => s.name)}
            {...(mcpOn() ? { loadPrompts, resources } : {})}
            lookupVariable={lookupVariable}
            trailing={
              <button
                type="button"
                class="tools-button"
                ref={toolsButton}
                aria-expanded={choosing()}
                title="Choose the tools this chat may use"
                data-testid="tools-button"
                onClick={() => setChoosing(!choosing())}
              >
                Tools · {selectedCount()}
              </button>
            }
          />
        </div>
      </Show>
    </section>
  );
}
