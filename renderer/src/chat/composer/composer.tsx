import { For, Show, createEffect, createMemo, createResource, createSignal, on, type JSX } from 'solid-js';
import type { AttachmentUpload } from '../../../../shared/api.ts';
import type { McpPromptInfo } from '../../../../shared/mcp.ts';
import { parsePromptCommand } from '../../../../shared/prompt-command.ts';
import { acceptsImages } from '../../../../shared/model-facts.ts';
import type { ToolInfo } from '../../../../shared/tools.ts';
import { FIND_TOOLS } from '../../../../shared/tool-selection.ts';
import type { SendState } from '../../store/create-app-store.ts';
import { AttachmentChips } from './attachment-chips.tsx';
import { createVarRefChips, VarRefChips } from './composer-var-refs.tsx';
import { admitUploads, readAttachments, type PendingAttachment } from './read-attachment.ts';
import { promptUsage, slashQuery, suggestPrompts, suggestToolSets, suggestTools } from './slash-suggestions.ts';
import { ResourcePicker, type ResourceSource } from './resource-picker.tsx';
import { Icon } from '../../ui/icons.tsx';
import { createFittingPlaceholder } from '../../ui/fitting-placeholder.ts';

type Suggestion = { kind: 'tool'; tool: ToolInfo; command: string } | { kind: 'prompt'; prompt: McpPromptInfo; command: string } | { kind: 'toolset'; command: string };

/** `/name …` (the runtime's slash-command shape, not a `/server:prompt`) naming no known tool. */
export function isUnknownToolCommand(text: string, known: string[] | undefined): boolean {
  const name = /^\/([A-Za-z_][\w.:-]*)(?:\s|$)/.exec(text.trim())?.[1];
  // `/toolset NAME` picks the chat's tool set: the runtime answers it, it is no tool.
  return !!name && !!known && !name.includes(':') && name !== FIND_TOOLS && name !== 'toolset' && !known.includes(name);
}

/** The draft key of a chat that has no session yet. */
export const NEW_CHAT_DRAFT = 'draft';

/**
 * The message box. Enter sends, Shift+Enter starts a new line (Esc stops the turn: App's key handler).
 * `/tool_name {json}` runs a tool directly (handled by the chat engine); typing `/` suggests
 * the chat's tools. `$VAR_REF{{name}}` shows a chip per variable; an unknown one blocks sending.
 * The text stays in the box until the runtime took the message: while the connection is down it
 * says so and sends when it is back. Files come by "Attach", drop or paste.
 */
export function Composer(props: {
  running: boolean;
  disabled?: boolean;
  /** Resolves true once the message was taken (the box is cleared then); false keeps it. */
  onSend: (text: string, attachments: AttachmentUpload[]) => Promise<boolean> | boolean | void;
  onAbort: () => void;
  ref?: (el: HTMLTextAreaElement) => void;
  sendState?: SendState;
  /** The chat's model, for the note on images. */
  model?: string;
  /** The tools `/` suggests (the chat's selection). */
  tools?: ToolInfo[];
  /** The tool sets `/toolset` offers (names). */
  toolSets?: string[];
  /** Every tool name the runtime knows (model names too): a `/name` outside them is a typo, kept in the box. */
  knownToolNames?: string[];
  /** MCP prompts `/` suggests as `/server:prompt` (read when the menu opens); absent: none. */
  loadPrompts?: () => Promise<McpPromptInfo[]>;
  /** MCP resources for "Attach resource"; absent: no such button. */
  resources?: ResourceSource;
  /** Size of a variable in characters, or null when there is none (for `$VAR_REF` chips). */
  lookupVariable?: (name: string) => Promise<number | null>;
  /** Messages sent during the running turn, waiting for it to end; Cancel takes one back into the box. */
  queued?: { id: string; text: string }[];
  /** The queued messages wait for the user (an interrupted turn): Send, even with an empty box, sends them. */
  queueHeld?: boolean;
  onSendQueued?: () => void;
  onUnqueue?: (id: string) => string | undefined;
  /** Controls after the text box, before Send (the "Tools" button; after it, so Shift+Tab from the box still reaches the cards). */
  trailing?: JSX.Element;
  /**
   * Whose draft the box holds (the session id, or "draft" for a new chat): switching chats keeps
   * each chat's unsent text and files, and a new chat's first send carries on what was typed after it.
   */
  draftKey?: string;
}) {
  const [text, setText] = createSignal('');
  const [files, setFiles] = createSignal<PendingAttachment[]>([]);
  const [problems, setProblems] = createSignal<string[]>([]);
  const [dragging, setDragging] = createSignal(false);
  const [picked, setPicked] = createSignal(0);
  const [menuClosed, setMenuClosed] = createSignal(false);
  let area!: HTMLTextAreaElement;
  let picker!: HTMLInputElement;
  const drafts = new Map<string, { text: string; files: PendingAttachment[] }>();
  createEffect(
    on(
      () => props.draftKey,
      (key, previous) => {
        if (previous === undefined || key === previous) return;
        const current = { text: text(), files: files() };
        drafts.set(previous, current);
        // A new chat becoming a session on its first send keeps what was typed after that send.
        const next = drafts.get(key ?? '') ?? (previous === NEW_CHAT_DRAFT ? current : { text: '', files: [] });
        drafts.delete(key ?? '');
        if (previous === NEW_CHAT_DRAFT) drafts.delete(previous);
        setText(next.text);
        area.value = next.text;
        setFiles(next.files);
        setProblems([]);
        fit();
      },
    ),
  );
  const chips = createVarRefChips(text, props.lookupVariable);
  // Prompts are read again each time a `/` starts a command: servers come and go.
  const slashing = createMemo(() => text().startsWith('/'));
  const [prompts] = createResource(
    () => (slashing() && props.loadPrompts ? props.loadPrompts : false),
    (load) => load().catch(() => [] as McpPromptInfo[]),
  );
  const suggestions = createMemo((): Suggestion[] => {
    const query = slashQuery(text());
    if (query === null || menuClosed()) return [];
    const tools = suggestTools(query, props.tools ?? []).map((tool): Suggestion => ({ kind: 'tool', tool, command: `/${tool.modelName}` }));
    const promptItems = suggestPrompts(query, prompts.latest ?? []).map((prompt): Suggestion => ({ kind: 'prompt', prompt, command: `/${prompt.command}` }));
    const sets = suggestToolSets(query, props.toolSets ?? []).map((command): Suggestion => ({ kind: 'toolset', command }));
    // A colon means a prompt is meant; otherwise tool sets (only once "/to…" is typed), tools, prompts.
    return query.includes(':') ? promptItems : [...sets, ...tools, ...promptItems].slice(0, 10);
  });
  /** The prompt the text names (`/server:prompt …`), for the arguments hint under the box. */
  const promptHint = createMemo(() => {
    const parsed = parsePromptCommand(text());
    if (!parsed) return null;
    const name = /^\/([^\s]+)/.exec(text().trim())?.[1];
    const prompt = (prompts.latest ?? []).find((p) => p.command === name);
    if (!prompt) return null;
    const given = 'args' in parsed ? parsed.args : {};
    const missing = prompt.arguments.filter((a) => a.required && !given[a.name]).map((a) => a.name);
    return { prompt, missing, error: 'error' in parsed ? parsed.error : undefined };
  });

  const busy = () => props.sendState === 'sending' || props.sendState === 'waiting';
  const send = async () => {
    const value = text();
    const attachments = files();
    if (props.disabled || busy()) return;
    if (!value.trim() && attachments.length === 0) {
      if (props.queueHeld) props.onSendQueued?.();
      return;
    }
    // Flagged before sending: the chip says which variable does not exist.
    if (chips.unknown().length > 0) return;
    const taken = await props.onSend(value, attachments.map((a) => a.upload));
    if (taken === false) return;
    // A mistyped `/tool` is answered "No tool named …" and not sent: the text stays to be fixed.
    if (isUnknownToolCommand(value, props.knownToolNames)) return;
    // Only what was sent is cleared: text typed after it meanwhile stays.
    if (text().startsWith(value)) {
      const rest = text().slice(value.length);
      setText(rest);
      area.value = rest;
    }
    setFiles((now) => now.filter((f) => !attachments.includes(f)));
    setProblems([]);
    fit();
  };
  const fit = () => {
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, 240)}px`;
  };
  const complete = (item: Suggestion) => {
    // A prompt's first required argument is started for the user: `/ev:args-prompt city=`.
    const first = item.kind === 'prompt' ? item.prompt.arguments.find((a) => a.required) : undefined;
    const value = `${item.command} ${first ? `${first.name}=` : ''}`;
    setText(value);
    area.value = value;
    setMenuClosed(true);
    area.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const list = suggestions();
    if (list.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setPicked((i) => (i + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length);
        return;
      }
      // Enter on a name typed in full sends it (`/tool` with no arguments); Tab always completes.
      const exact = list.some((t) => t.command === text().trim());
      if ((e.key === 'Enter' && !e.shiftKey && !exact) || e.key === 'Tab') {
        e.preventDefault();
        complete(list[Math.min(picked(), list.length - 1)]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setMenuClosed(true);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  };
  const add = async (list: File[]) => {
    if (list.length === 0) return;
    const { added, problems: refused } = await readAttachments(list, files());
    setFiles((now) => [...now, ...added]);
    setProblems(refused);
  };
  const [pickingResource, setPickingResource] = createSignal(false);
  const addUpload = (upload: AttachmentUpload) => {
    const { added, problems: refused } = admitUploads([upload], files());
    setFiles((now) => [...now, ...added]);
    setProblems(refused);
    return refused.length === 0;
  };
  const { placeholder, attach: attachPlaceholder } = createFittingPlaceholder(['Message — or /tool_name {json} to run a tool', 'Message, or /tool {json}', 'Message']);
  const imageNote = () =>
    files().some((f) => f.kind === 'image') && props.model && !acceptsImages(props.model)
      ? `${props.model} is not known to accept images: they are sent as they are, and the provider may refuse them. Pick a vision model in "Model" if it does.`
      : null;

  return (
    <form
      class="composer"
      classList={{ dragging: dragging() }}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onDragOver={(e) => {
        if (!e.dataTransfer?.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        setDragging(false);
        if (!e.dataTransfer?.files.length) return;
        e.preventDefault();
        void add([...e.dataTransfer.files]);
      }}
    >
      <div class="composer-box">
        <Show when={suggestions().length > 0}>
          <ul class="slash-menu" role="listbox" aria-label="Tools and prompts" data-testid="slash-menu">
            <For each={suggestions()}>
              {(item, i) => (
                <li
                  role="option"
                  aria-selected={i() === picked()}
                  class={i() === picked() ? 'picked' : ''}
                  data-kind={item.kind}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    complete(item);
                  }}
                >
                  {item.kind === 'toolset' ? (
                    <>
                      <span class="badge small">tool set</span> <code>{item.command}</code>
                    </>
                  ) : item.kind === 'tool' ? (
                    <>
                      <code>{item.command}</code> <span class="muted small">{item.tool.description.split('\n')[0]}</span>
                    </>
                  ) : (
                    <>
                      <span class="badge small">prompt</span> <code>{item.command}</code> <code class="muted small">{promptUsage(item.prompt)}</code>{' '}
                      <span class="muted small">{(item.prompt.title ?? item.prompt.description ?? '').split('\n')[0]}</span>
                    </>
                  )}
                </li>
              )}
            </For>
          </ul>
        </Show>
        <Show when={suggestions().length === 0 && promptHint()}>
          {(hint) => (
            <div class="composer-notes small" role="status" data-testid="prompt-hint">
              <code>/{hint().prompt.command}</code>
              {hint().prompt.arguments.length === 0 ? ' takes no arguments.' : ' — '}
              <For each={hint().prompt.arguments}>
                {(arg, i) => (
                  <>
                    {i() > 0 ? ' · ' : ''}
                    <code>{arg.name}</code>
                    {arg.required ? ' (required)' : ''}
                    {arg.description ? `: ${arg.description}` : ''}
                  </>
                )}
              </For>
              <Show when={hint().error ?? (hint().missing.length ? `Still needed: ${hint().missing.join(', ')}.` : undefined)}>
                {(problem) => <div class="warn-text">{problem()}</div>}
              </Show>
            </div>
          )}
        </Show>
        <VarRefChips refs={chips.refs()} />
        <AttachmentChips
          items={files().map((f) => ({ name: f.upload.name, kind: f.kind, size: f.size, ...(f.kind === 'image' ? { preview: { mimeType: f.upload.mediaType, data: f.upload.data } } : {}) }))} onRemove={(i) => setFiles((now) => now.filter((_, n) => n !== i))} />
        <Show when={problems().length > 0 || imageNote()}>
          <div class="composer-notes small" role="status" data-testid="attach-note">
            {[...problems(), ...(imageNote() ? [imageNote()!] : [])].join(' ')}
          </div>
        </Show>
        <Show when={props.queued?.length}>
          <ul class="composer-notes small queued-list" aria-label="Waiting to be sent" data-testid="queued">
            <For each={props.queued}>
              {(item) => (
                <li class="row" data-testid="queued-message">
                  <span class="grow queued-text">{item.text}</span>
                  <span class="muted">{props.queueHeld ? 'waits for you: Send sends it now; after Continue or Retry it follows their answer' : 'will send after this turn'}</span>
                  <button
                    type="button"
                    class="link small"
                    aria-label={`Cancel sending “${item.text.slice(0, 40)}”`}
                    onClick={() => {
                      const back = props.onUnqueue?.(item.id);
                      // Taken back into the box when it is empty, so nothing typed is lost.
                      if (back !== undefined && !text().trim()) {
                        setText(back);
                        area.value = back;
                        fit();
                      }
                      area.focus();
                    }}
                  >
                    Cancel
                  </button>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <Show when={props.sendState === 'waiting'}>
          <div class="composer-notes small warn-text" role="status" data-testid="send-waiting">
            Not connected — will send when reconnected.
          </div>
        </Show>
        <Show when={pickingResource() && props.resources}>
          <ResourcePicker
            source={props.resources!}
            onPick={(upload) => {
              if (addUpload(upload)) setPickingResource(false);
            }}
            onClose={() => {
              setPickingResource(false);
              area.focus();
            }}
          />
        </Show>
        <div class="composer-row">
          <textarea
            ref={(el) => {
              area = el;
              props.ref?.(el);
              attachPlaceholder(el);
            }}
            rows={1}
            placeholder={placeholder()}
            aria-label="Message"
            data-testid="composer"
            data-focus-home
            value={text()}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setPicked(0);
              if (slashQuery(e.currentTarget.value) === null) setMenuClosed(false);
              fit();
            }}
            onKeyDown={onKeyDown}
            onPaste={(e) => {
              const pasted = [...(e.clipboardData?.files ?? [])];
              if (pasted.length === 0) return;
              e.preventDefault();
              void add(pasted);
            }}
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
              aria-expanded={pickingResource()}
              title="Attach a resource of a switched-on MCP server"
              data-testid="attach-resource"
              onClick={() => setPickingResource(!pickingResource())}
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
              void add([...(e.currentTarget.files ?? [])]);
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
