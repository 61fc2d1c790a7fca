// The "Model" picker of a chat: every model of every configured provider, searchable, each with
// its provider's name. Arrow keys move, Enter picks, Esc closes.
import { For, Show, createResource, createSignal } from 'solid-js';
import type { ModelChoice } from '../../../shared/api.ts';
import { useApp } from '../store/app-context.tsx';

export function ModelPicker(props: { current: { providerId?: string; model?: string }; onPick: (choice: ModelChoice) => void }) {
  const app = useApp();
  const [open, setOpen] = createSignal(false);
  const [query, setQuery] = createSignal('');
  const [cursor, setCursor] = createSignal(0);
  const [list] = createResource(open, () => app.api.listAllModels().catch((error: Error) => ({ models: [], problems: [error.message] })));
  const shown = () => {
    const q = query().trim().toLowerCase();
    const models = list()?.models ?? [];
    return q ? models.filter((m) => `${m.model} ${m.providerName}`.toLowerCase().includes(q)) : models;
  };
  const pick = (choice: ModelChoice | undefined) => {
    if (!choice) return;
    setOpen(false);
    setQuery('');
    props.onPick(choice);
  };
  const label = () => props.current.model ?? 'No model';
  let button!: HTMLButtonElement;

  return (
    <div class="model-picker">
      <button
        ref={button}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open()}
        title="The model this chat uses"
        onClick={() => setOpen(!open())}
        data-testid="model-picker"
      >
        Model: <strong data-testid="model-current">{label()}</strong>
      </button>
      <Show when={open()}>
        <div
          class="model-menu"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              setOpen(false);
              button.focus();
            }
          }}
        >
          <input
            type="search"
            placeholder="Search models"
            aria-label="Search models"
            value={query()}
            ref={(el) => queueMicrotask(() => el.focus())}
            onInput={(e) => {
              setQuery(e.currentTarget.value);
              setCursor(0);
            }}
            onKeyDown={(e) => {
              const count = shown().length;
              if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && count > 0) {
                e.preventDefault();
                setCursor((i) => (i + (e.key === 'ArrowDown' ? 1 : -1) + count) % count);
              } else if (e.key === 'Enter') {
                e.preventDefault();
                pick(shown()[cursor()]);
              }
            }}
            data-testid="model-search"
          />
          <Show when={!list.loading} fallback={<div class="muted small">Asking the providers…</div>}>
            <ul role="listbox" aria-label="Models">
              <For each={shown()} fallback={<li class="muted small">{(list()?.models.length ?? 0) === 0 ? 'No provider is configured: add one in Settings.' : 'No match.'}</li>}>
                {(choice, index) => (
                  <li>
                    <button
                      type="button"
                      role="option"
                      aria-selected={index() === cursor()}
                      classList={{ current: choice.providerId === props.current.providerId && choice.model === props.current.model }}
                      onClick={() => pick(choice)}
                      data-testid="model-option"
                    >
                      <span>{choice.model}</span>
                      <span class="muted small">{choice.providerName}</span>
                    </button>
                  </li>
                )}
              </For>
            </ul>
            <For each={list()?.problems ?? []}>{(problem) => <div class="muted small">{problem}</div>}</For>
          </Show>
        </div>
      </Show>
    </div>
  );
}
