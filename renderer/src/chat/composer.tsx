import { For, Show, createMemo, createSignal, type JSX } from 'solid-js';
import type { ToolInfo } from '../../../shared/tools.ts';
import { createVarRefChips, VarRefChips } from './composer-var-refs.tsx';
import { slashQuery, suggestTools } from './slash-suggestions.ts';

/**
 * The message box. Enter sends, Shift+Enter starts a new line (Esc stops the turn: App's key handler).
 * `/tool_name {json}` runs a tool directly (handled by the chat engine); typing `/` suggests
 * the chat's tools. `$VAR_REF{{name}}` shows a chip per variable; an unknown one blocks sending.
 */
export function Composer(props: {
  running: boolean;
  disabled?: boolean;
  onSend: (text: string) => void;
  onAbort: () => void;
  ref?: (el: HTMLTextAreaElement) => void;
  /** The tools `/` suggests (the chat's selection). */
  tools?: ToolInfo[];
  /** Size of a variable in characters, or null when there is none (for `$VAR_REF` chips). */
  lookupVariable?: (name: string) => Promise<number | null>;
  /** Controls after the text box, before Send (the "Tools" button; after it, so Shift+Tab from the box still reaches the cards). */
  trailing?: JSX.Element;
}) {
  const [text, setText] = createSignal('');
  const [picked, setPicked] = createSignal(0);
  const [menuClosed, setMenuClosed] = createSignal(false);
  let area!: HTMLTextAreaElement;
  const chips = createVarRefChips(text, props.lookupVariable);
  const suggestions = createMemo(() => {
    const query = slashQuery(text());
    return query === null || menuClosed() ? [] : suggestTools(query, props.tools ?? []);
  });

  const send = () => {
    const value = text();
    if (!value.trim() || props.disabled) return;
    // Flagged before sending: the chip says which variable does not exist.
    if (chips.unknown().length > 0) return;
    props.onSend(value);
    setText('');
    area.value = '';
    fit();
  };
  const fit = () => {
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, 240)}px`;
  };
  const complete = (tool: ToolInfo) => {
    const value = `/${tool.modelName} `;
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
      const exact = list.some((t) => `/${t.modelName}` === text().trim());
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
      send();
    }
  };

  return (
    <div class="composer-box">
      <Show when={suggestions().length > 0}>
        <ul class="slash-menu" role="listbox" aria-label="Tools" data-testid="slash-menu">
          <For each={suggestions()}>
            {(tool, i) => (
              <li
                role="option"
                aria-selected={i() === picked()}
                class={i() === picked() ? 'picked' : ''}
                onMouseDown={(e) => {
                  e.preventDefault();
                  complete(tool);
                }}
              >
                <code>/{tool.modelName}</code> <span class="muted small">{tool.description.split('\n')[0]}</span>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <VarRefChips refs={chips.refs()} />
      <form
        class="composer"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <textarea
          ref={(el) => {
            area = el;
            props.ref?.(el);
          }}
          rows={1}
          placeholder="Message — or /tool_name {json} to run a tool"
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
        />
        {props.trailing}
        {props.running ? (
          <button type="button" class="danger" onClick={() => props.onAbort()} title="Stop (Esc)" data-testid="abort">
            Stop
          </button>
        ) : (
          <button type="submit" class="primary" disabled={props.disabled || chips.unknown().length > 0} data-testid="send">
            Send
          </button>
        )}
      </form>
    </div>
  );
}
