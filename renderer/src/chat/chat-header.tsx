// The chat's own bar: its model ("Model"), "Chat settings", the context meter (context-meter.tsx)
// and "Export".
import { Show, createSignal } from 'solid-js';
import type { ChatSettings } from '../../../shared/chat.ts';
import type { ExportFormat } from '../../../shared/api.ts';
import type { ChatState } from '../store/app-state.ts';
import { useApp } from '../store/app-context.tsx';
import { ChatSettingsPanel } from './chat-settings-panel.tsx';
import { ContextMeter } from './context-meter.tsx';
import { ModelPicker } from './model-picker.tsx';
import { PermissionControls } from './tool-calls/permission-controls.tsx';
import { returnFocusAfterClose } from '../ui/return-focus.ts';

/** The model a chat uses: its own choice, else the last one picked (new chats), else the active provider's. */
export function effectiveModel(chat: ChatSettings, settings: ReturnType<typeof useApp>['state']['settings']): { providerId?: string; model?: string } {
  if (chat.model) return { ...(chat.providerId ? { providerId: chat.providerId } : {}), model: chat.model };
  const active = settings?.providers.find((p) => p.id === settings.activeProviderId);
  return active ? { providerId: active.id, model: active.model } : {};
}

/**
 * The model a chat talks to, as the header shows it and the composer's notes name it. A new chat
 * without a pick of its own starts with the model last picked in any chat (session-manager.ts).
 */
export function chatModel(chat: ChatSettings, settings: ReturnType<typeof useApp>['state']['settings'], isNew: boolean): { providerId?: string; model?: string } {
  const lastPick = isNew && !chat.model ? settings?.lastChatModel : undefined;
  return lastPick ?? effectiveModel(chat, settings);
}

function download(fileName: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ChatHeader(props: { chat?: ChatState; draftChat?: ChatSettings }) {
  const app = useApp();
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  const [exportOpen, setExportOpen] = createSignal(false);
  let settingsToggle: HTMLButtonElement | undefined;
  const own = () => props.chat?.chat ?? props.draftChat ?? {};
  const current = () => chatModel(own(), app.state.settings, !props.chat);
  const used = () => {
    const last = props.chat?.rows.findLast((r) => r.kind === 'assistant' && r.usage);
    return last?.kind === 'assistant' && last.usage ? last.usage.inputTokens + last.usage.outputTokens : 0;
  };
  const doExport = async (format: ExportFormat) => {
    setExportOpen(false);
    const file = await app.exportSession(format);
    if (file) download(file.fileName, file.content, format === 'json' ? 'application/json' : 'text/markdown');
  };

  return (
    <>
      <div class="chat-header" data-testid="chat-header">
        <ModelPicker current={current()} onPick={(choice) => void app.setChatSettings({ ...own(), providerId: choice.providerId, model: choice.model })} />
        <button type="button" ref={settingsToggle} aria-expanded={settingsOpen()} onClick={() => setSettingsOpen(!settingsOpen())} data-testid="chat-settings-toggle">
          Chat settings
        </button>
        <PermissionControls chat={own()} onChange={(chat) => void app.setChatSettings(chat)} />
        <span class="grow" />
        <ContextMeter current={current()} used={used()} />
        <Show when={props.chat}>
          <div class="model-picker">
            <button type="button" aria-haspopup="menu" aria-expanded={exportOpen()} onClick={() => setExportOpen(!exportOpen())} data-testid="export">
              Export
            </button>
            <Show when={exportOpen()}>
              <div class="model-menu" role="menu" style={{ width: '200px', left: 'auto', right: '0' }}>
                <button type="button" role="menuitem" onClick={() => void doExport('md')} data-testid="export-md">
                  Markdown (.md)
                </button>
                <button type="button" role="menuitem" onClick={() => void doExport('json')} data-testid="export-json">
                  JSON (.json)
                </button>
              </div>
            </Show>
          </div>
        </Show>
      </div>
      <Show when={settingsOpen()}>
        <ChatSettingsPanel
          chat={own()}
          onClose={() => {
            returnFocusAfterClose(document.querySelector('[data-testid="chat-settings"]'), () => settingsToggle);
            setSettingsOpen(false);
          }}
        />
      </Show>
    </>
  );
}
