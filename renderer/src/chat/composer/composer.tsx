import { Show, type JSX } from 'solid-js';
import type { McpPromptInfo } from '../../../../shared/mcp.ts';
import type { ToolInfo } from '../../../../shared/tools.ts';
import { createComposerAttachments, PendingAttachments } from './composer-attachments.tsx';
import { createComposerDraft } from './composer-draft.ts';
import { composerKeyAction } from './composer-keys.ts';
import { createComposerSend, QueuedMessages, type SendProps } from './composer-send.tsx';
import { createVarRefChips, VarRefChips } from './composer-var-refs.tsx';
import { ResourcePicker, type ResourceSource } from './resource-picker.tsx';
import { createSlashMenu, PromptHint, SlashMenu, type Suggestion } from './slash-menu.tsx';
import { Icon } from '../../ui/icons.tsx';
import { createFittingPlaceholder } from '../../ui/fitting-placeholder.ts';

/**
 * The message box: its layout and the wiring of its parts. Enter sends, Shift+Enter starts a new
 * line (Esc stops the turn: App's key handler; keys in `composer-keys.ts`). `/tool_name {json}`
 * runs a tool directly (handled by the chat engine); typing `/` suggests the chat's tools
 * (`slash-menu.tsx`). `$VAR_REF{{name}}` shows a chip per variable; an unknown one blocks sending.
 * The text stays in the box until the runtime took the message (`composer-send.tsx`): while the
 * connection is down it says so and sends when it is back. Files come by "Attach", drop or paste
 * (`composer-attachments.tsx`); each chat keeps its own draft (`composer-draft.ts`).
 */
export function Composer(
  props: SendProps & {
    running: boolean;
    onAbort: () => void;
    ref?: (el: HTMLTextAreaElement) => void;
    /** The chat's model, for the note on images. */
    model?: string;
    /** The tools `/` suggests (the chat's selection). */
    tools?: ToolInfo[];
    /** The tool sets `/toolset` offers (names). */
    toolSets?: string[];
    /** MCP prompts `/` suggests as `/server:prompt` (read when the menu opens); absent: none. */
    loadPrompts?: () => Promise<McpPromptInfo[]>;
    /** MCP resources for "Attach resource"; absent: no such button. */
    resources?: ResourceSource;
    /** Size of a variable in characters, or null when there is none (for `$VAR_REF` chips). */
    lookupVariable?: (name: string) => Promise<number | null>;
    /** Messages sent during the running turn, waiting for it to end; Cancel takes one back into the box. */
    queued?: { id: string; text: string }[];
    /** Controls after the text box, before Send (the "Tools" button; after it, so Shift+Tab from the box still reaches the cards). */
    trailing?: JSX.Element;
    /**
     * Whose draft the box holds (the session id, or "draft" for a new chat): switching chats keeps
     * each chat's unsent text and files, and a new chat's first send carries on what was typed after it.
     */
    draftKey?: string;
  },
) {
  const attachments = createComposerAttachments();
  const draft = createComposerDraft(() => props.draftKey, attachments);
  const chips = createVarRefChips(draft.text, props.lookupVariable);
  const menu = createSlashMenu(draft.text, props);
  const { busy, send, unqueue } = createComposerSend(props, draft, attachments, chips.unknown);
  let picker!: HTMLInputElement;

  const complete = (item: Suggestion) => {
    // A prompt's first required argument is started for the user: `/ev:args-prompt city=`.
    const first = item.kind === 'prompt' ? item.prompt.arguments.find((a) => a.required) : undefined;
    draft.setText(`${item.command} ${first ? `${first.name}=` : ''}`);
    menu.close();
    draft.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const action = composerKeyAction(e, { open: menu.suggestions().length > 0, exact: menu.exact() });
    if (!action) return;
    e.preventDefault();
    if (action === 'pick-next' || action === 'pick-previous') menu.move(action === 'pick-next' ? 1 : -1);
    else if (action === 'complete') complete(menu.pickedItem()!);
    else if (action === 'send') void send();
    else {
      // Escape closes the menu only; the turn goes on.
      e.stopPropagation();
      menu.close();
    }
  };
  const { placeholder, attach: attachPlaceholder } = createFittingPlaceholder(['Message — or /tool_name {json} to run a tool', 'Message, or /tool {json}', 'Message']);

  return (
    <form
      class="composer"
      classList={{ dragging: attachments.dragging() }}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onDragOver={attachments.drop.onDragOver}
      onDragLeave={attachments.drop.onDragLeave}
      onDrop={attachments.drop.onDrop}
    >
      <div class="composer-box">
        <SlashMenu menu={menu} onPick={complete} />
        <PromptHint menu={menu} />
        <VarRefChips refs={chips.refs()} />
        <PendingAttachments attachments={attachments} model={props.model} />
        <QueuedMessages queued={props.queued} held={props.queueHeld} onCancel={unqueue} />
        <Show when={props.sendState === 'waiting'}>
          <div class="composer-notes small warn-text" role="status" data-testid="send-waiting">
            Not connected — will send when reconnected.
          </div>
        </Show>
        <Show when={attachments.pickingResource() && props.resources}>
          <ResourcePicker
            source={props.resources!}
            onPick={(upload) => {
              if (attachments.addUpload(upload)) attachments.setPickingResource(false);
            }}
            onClose={() => {
              attachments.setPickingResource(false);
              draft.focus();
            }}
          />
        </Show>
        <div class="composer-row">
          <textarea
            ref={(el) => {
              draft.bind(el);
              props.ref?.(el);
              attachPlaceholder(el);
            }}
            rows={1}
            placeholder={placeholder()}
            aria-label="Message"
            data-testid="composer"
            data-focus-home
            value={draft.text()}
            onInput={(e) => {
              draft.typed(e.currentTarget.value);
              menu.typed(e.currentTarget.value);
              draft.fit();
            }}
            onKeyDown={onKeyDown}
            onPaste={attachments.onPaste}
          />
          {/* After the box: Shift+Tab from the box still walks back into waiting approval cards. */}
          {props.trailing}
          <button type="button" class="icon attach" aria-label="Attach" title="Attach images, text files or PDFs (or drop or paste them)" onClick={() => picker.click()} data-testid="attach">
            +
          </button>
          <Show when={props.resources}>
            <button
              type="button"
              class="icon attach-resource"
              aria-label="Attach resource"
              aria-expanded={attachments.pickingResource()}
              title="Attach a resource of a switched-on MCP server"
              data-testid="attach-resource"
              onClick={() => attachments.setPickingResource(!attachments.pickingResource())}
            >
              <Icon name="resource" size={16} />
            </button>
          </Show>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            data-testid="attach-input"
            onChange={(e) => {
              void attachments.add([...(e.currentTarget.files ?? [])]);
              e.currentTarget.value = '';
            }}
          />
          {props.running ? (
            <button type="button" class="danger" onClick={() => props.onAbort()} title="Stop (Esc)" data-testid="abort">
              Stop
            </button>
          ) : (
            <button type="submit" class="primary" disabled={props.disabled || busy()} data-testid="send">
              {props.sendState === 'waiting' ? 'Waiting…' : 'Send'}
            </button>
          )}
        </div>
      </div>
    </form>
  );
}
