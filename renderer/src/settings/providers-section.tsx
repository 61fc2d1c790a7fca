import { For, Show, createMemo, createResource, createSignal } from 'solid-js';
import type { ProviderInfo } from '../../../shared/api.ts';
import type { ProviderConfig } from '../../../shared/settings.ts';
import { useApp } from '../store/app-context.tsx';
import { useSettings } from './use-settings.ts';
import { ProviderEditor } from './provider-editor.tsx';
import { useProviderDrafts } from './provider-drafts.ts';

/** Providers: base URL, model picker (from /v1/models), API key in the keychain (masked), Test. */
export function ProvidersSection() {
  const app = useApp();
  const { settings, save } = useSettings();
  const [providers, { refetch }] = createResource(
    () => settings()?.providers,
    () => app.api.listProviders().catch(() => [] as ProviderInfo[]),
  );
  // Rows are keyed by id: a save re-reads the list, and the row (its open editor, the button the
  // keyboard is on) must stay the same element.
  const ids = createMemo(() => (providers() ?? []).map((p) => p.id), [], { equals: (a, b) => a.length === b.length && a.every((id, i) => id === b[i]) });
  const byId = (id: string) => providers()?.find((p) => p.id === id);
  const drafts = useProviderDrafts();
  const { adding, setAdding, editing, setEditing } = drafts;
  // Saving re-reads the list (the editor starts over), so the confirmation lives here.
  const [saved, setSaved] = createSignal<string | null>(null);
  // A new provider just saved: its list editor takes the keyboard (on Save) when it appears.
  const [moved, setMoved] = createSignal<string | null>(null);

  // "+ Add provider" opens a form with an empty address (a preset or the user fills it) for a provider that is stored only by its Save (Cancel discards it).
  // Which forms are open, and what they hold, survive closing Settings (provider-drafts.ts).
  let addButton: HTMLButtonElement | undefined;
  const add = () => {
    const id = `provider-${Date.now().toString(36)}`;
    const provider: ProviderConfig = { id, name: 'New provider', kind: 'openai-compatible', baseURL: '', model: '' };
    setEditing(null);
    setAdding({ ...provider, active: false, hasApiKey: false });
  };

  return (
    <section class="settings-section" aria-labelledby="providers-title">
      <h3 id="providers-title">Providers</h3>
      <ul class="provider-list">
        <For each={ids()} fallback={<li class="muted small">No provider yet.</li>}>
          {(id) => (
            <Show when={byId(id)}>
              {(provider) => {
                return (
            <li class="card" data-provider={id}>
              <div class="row">
                <input
                  type="radio"
                  name="active-provider"
                  checked={settings()?.activeProviderId === id}
                  aria-label={`Use ${provider().name}`}
                  onChange={() => void save({ activeProviderId: id })}
                />
                <strong>{provider().name}</strong>
                <span class="muted small grow mono provider-url" title={`${provider().baseURL} · ${provider().model}`}>
                  {provider().baseURL} · {provider().model || 'no model'}
                </span>
                <Show when={saved() === id}>
                  <span class="badge ok" role="status" data-testid="provider-saved">
                    saved
                  </span>
                </Show>
                <Show when={provider().hasApiKey}>
                  <span class="badge ok">key stored</span>
                </Show>
                <button
                  type="button"
                  onClick={() => {
                    setSaved(null);
                    // "Close" gives up what was typed; closing the whole panel keeps it.
                    if (editing() === id) drafts.forget(id);
                    setEditing(editing() === id ? null : id);
                  }}
                >
                  {editing() === id ? 'Close' : 'Edit'}
                </button>
              </div>
              <Show when={editing() === id}>
                <ProviderEditor
                  provider={provider()}
                  {...(moved() === id ? { focusOnOpen: 'save' as const } : {})}
                  onSaved={() => {
                    setSaved(id);
                    void refetch();
                  }}
                  onDeleted={() => setEditing(null)}
                />
              </Show>
            </li>
                );
              }}
            </Show>
          )}
        </For>
      </ul>
      <Show
        when={adding()}
        fallback={
          <button type="button" onClick={add} ref={addButton} data-testid="add-provider">
            + Add provider
          </button>
        }
      >
        {(draft) => (
          <div class="card">
            <ProviderEditor
              provider={draft()}
              isNew
              focusOnOpen="name"
              onSaved={() => {
                // Stored now: it goes on in the list's own editor (the key field shows its mask),
                // the keyboard on its Save, where it was.
                const id = draft().id;
                setSaved(id);
                setAdding(null);
                setEditing(id);
                setMoved(id);
                void refetch();
              }}
              onDeleted={() => {
                setAdding(null);
                addButton?.focus();
              }}
            />
          </div>
        )}
      </Show>
    </section>
  );
}
