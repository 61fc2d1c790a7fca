import { For, Show, createResource, createSignal } from 'solid-js';
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
  const drafts = useProviderDrafts();
  const { adding, setAdding, editing, setEditing } = drafts;
  // Saving re-reads the list (the editor starts over), so the confirmation lives here.
  const [saved, setSaved] = createSignal<string | null>(null);

  // "+ Add provider" opens a form with an empty address (a preset or the user fills it) for a provider that is stored only by its Save (Cancel discards it).
  // Which forms are open, and what they hold, survive closing Settings (provider-drafts.ts).
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
        <For each={providers() ?? []} fallback={<li class="muted small">No provider yet.</li>}>
          {(p) => (
            <li class="card">
              <div class="row">
                <input
                  type="radio"
                  name="active-provider"
                  checked={settings()?.activeProviderId === p.id}
                  aria-label={`Use ${p.name}`}
                  onChange={() => void save({ activeProviderId: p.id })}
                />
                <strong>{p.name}</strong>
                <span class="muted small grow mono provider-url" title={`${p.baseURL} · ${p.model}`}>
                  {p.baseURL} · {p.model || 'no model'}
                </span>
                <Show when={saved() === p.id}>
                  <span class="badge ok" role="status" data-testid="provider-saved">
                    saved
                  </span>
                </Show>
                <Show when={p.hasApiKey}>
                  <span class="badge ok">key stored</span>
                </Show>
                <button
                  type="button"
                  onClick={() => {
                    setSaved(null);
                    // "Close" gives up what was typed; closing the whole panel keeps it.
                    if (editing() === p.id) drafts.forget(p.id);
                    setEditing(editing() === p.id ? null : p.id);
                  }}
                >
                  {editing() === p.id ? 'Close' : 'Edit'}
                </button>
              </div>
              <Show when={editing() === p.id}>
                <ProviderEditor
                  provider={p}
                  onSaved={() => {
                    setSaved(p.id);
                    void refetch();
                  }}
                  onDeleted={() => setEditing(null)}
                />
              </Show>
            </li>
          )}
        </For>
      </ul>
      <Show
        when={adding()}
        fallback={
          <button type="button" onClick={add} data-testid="add-provider">
            + Add provider
          </button>
        }
      >
        {(draft) => (
          <div class="card">
            <ProviderEditor
              provider={draft()}
              isNew
              onSaved={() => {
                // Stored now: it goes on in the list's own editor (the key field shows its mask).
                const id = draft().id;
                setSaved(id);
                setAdding(null);
                setEditing(id);
                void refetch();
              }}
              onDeleted={() => setAdding(null)}
            />
          </div>
        )}
      </Show>
    </section>
  );
}
