import { For, Show, createEffect, createResource, createSignal } from 'solid-js';
import { createStore } from 'solid-js/store';
import { providerKeySecretName, type ProviderInfo, type ProviderTestResult } from '../../../shared/api.ts';
import type { ProviderConfig } from '../../../shared/settings.ts';
import { useApp } from '../store/app-context.tsx';
import { ModelCombobox, type ModelComboboxHandle } from './model-combobox.tsx';
import { useSettings } from './use-settings.ts';
import { confirmDialog } from '../ui/dialog.tsx';
import { useProviderDrafts } from './provider-drafts.ts';
import { PROVIDER_PRESETS, presetForBaseURL, type ProviderPreset } from '../../../shared/provider-presets.ts';

/** Shown in the key field while a key is stored: the key itself never comes back from the host. */
const KEY_MASK = '••••••••••••';

/** Edits one provider: name, base URL, model (picked from /v1/models), API key (keychain), Test. */
/** `isNew`: a provider not stored yet ("+ Add provider"): Save stores it (active when none is), Cancel discards it. */
/** `focusOnOpen`: the field the keyboard goes to when the form appears (Name for "+ Add provider", Save once it is stored). */
export function ProviderEditor(props: { provider: ProviderInfo; onSaved: () => void; onDeleted: () => void; isNew?: boolean; focusOnOpen?: 'name' | 'save' }) {
  const app = useApp();
  const { settings, save } = useSettings();
  // A form left open when Settings closed comes back as it was (provider-drafts.ts).
  const drafts = useProviderDrafts();
  const kept = drafts.get(props.provider.id);
  const [draft, setDraft] = createStore<ProviderConfig>(
    kept?.provider ?? {
      id: props.provider.id,
      name: props.provider.name,
      kind: props.provider.kind,
      baseURL: props.provider.baseURL,
      model: props.provider.model,
      ...(props.provider.apiKeySecret ? { apiKeySecret: props.provider.apiKeySecret } : {}),
    },
  );
  const [apiKey, setApiKey] = createSignal(kept?.apiKey ?? (props.provider.hasApiKey ? KEY_MASK : ''));
  createEffect(() => drafts.keep(draft.id, { provider: { ...draft }, apiKey: apiKey() }));
  const [models, setModels] = createSignal<string[]>([]);
  const [test, setTest] = createSignal<ProviderTestResult | null>(null);
  const [busy, setBusy] = createSignal(false);
  // Where keys go: the OS keychain, or (none on this machine) memory until the app stops.
  const [info] = createResource(() => app.api.appInfo().catch(() => null));
  const noKeyring = () => {
    const secrets = info()?.secrets;
    return secrets && secrets.backend !== 'keyring' ? secrets : null;
  };
  const keyChanged = () => apiKey() !== KEY_MASK;
  const secretName = () => draft.apiKeySecret ?? providerKeySecretName(draft.id);
  const typedKey = () => (keyChanged() && apiKey() ? { apiKey: apiKey() } : {});

  // A provider without a model cannot chat: the first model the server lists fills an empty field.
  const showModels = (list: string[]) => {
    setModels(list);
    if (!draft.model.trim() && list[0]) setDraft('model', list[0]);
  };
  // A provider not stored yet has no id the runtime knows (its stored key is looked up by id).
  const savedId = () => (props.isNew ? {} : { providerId: draft.id });
  let modelField: ModelComboboxHandle | undefined;
  const fetchModels = async () => {
    const list = await app.guard(() => app.api.listModels({ provider: { ...draft }, ...typedKey(), ...savedId() }));
    if (!list) return;
    showModels(list);
    // The list was asked for to pick from: show it, in the one Model field.
    if (list.length > 0) modelField?.openList();
  };
  const runTest = async () => {
    setBusy(true);
    setTest((await app.guard(() => app.api.testProvider({ provider: { ...draft }, ...typedKey(), ...savedId() }))) ?? null);
    if (test()?.models) showModels(test()!.models!);
    setBusy(false);
  };
  // One call: the provider and its key are saved together, or (the toast says why) neither is,
  // and the typed key stays in the field.
  const [missing, setMissing] = createSignal('');
  const persist = async () => {
    if (!draft.baseURL.trim()) return setMissing('Base URL is empty: pick a preset above or type the server’s address (it usually ends in /v1).');
    setMissing('');
    const provider: ProviderConfig = { ...draft };
    const secrets: Record<string, string | null> = {};
    if (keyChanged()) {
      if (apiKey()) {
        secrets[secretName()] = apiKey();
        provider.apiKeySecret = secretName();
      } else if (draft.apiKeySecret) {
        secrets[draft.apiKeySecret] = null;
        delete provider.apiKeySecret;
      }
    }
    // The form edits some fields; the rest (headers, temperature, maxTokens… set from the CLI or the
    // settings file) are kept as stored.
    const keep = (stored: ProviderConfig): ProviderConfig => {
      const next = { ...stored, ...provider };
      if (!provider.apiKeySecret) delete next.apiKeySecret; // the key was removed in the form
      return next;
    };
    const stored = settings()?.providers ?? [];
    const list = props.isNew ? [...stored, provider] : stored.map((p) => (p.id === provider.id ? keep(p) : p));
    const active = settings()?.activeProviderId;
    const patch = props.isNew && !stored.some((p) => p.id === active) ? { providers: list, activeProviderId: provider.id } : { providers: list };
    if (await save(patch, secrets)) {
      setApiKey(provider.apiKeySecret ? KEY_MASK : '');
      drafts.forget(draft.id);
      props.onSaved();
    }
  };
  const remove = async () => {
    if (!(await confirmDialog({ title: `Remove provider ${draft.name}?`, message: 'Its stored API key is removed too.', confirmLabel: 'Remove', danger: true }))) return;
    const list = (settings()?.providers ?? []).filter((p) => p.id !== draft.id);
    const active = settings()?.activeProviderId === draft.id ? (list[0]?.id ?? null) : (settings()?.activeProviderId ?? null);
    const secrets = draft.apiKeySecret ? { [draft.apiKeySecret]: null } : undefined;
    if (await save({ providers: list, activeProviderId: active }, secrets)) {
      drafts.forget(draft.id);
      props.onDeleted();
    }
  };

  // A preset fills the address and, unless the user named the provider, its name.
  const preset = () => presetForBaseURL(draft.baseURL);
  const usePreset = (picked: ProviderPreset) => {
    const named = draft.name.trim() && draft.name !== 'New provider' && !PROVIDER_PRESETS.some((p) => p.name === draft.name);
    setDraft({ baseURL: picked.baseURL, ...(named ? {} : { name: picked.name }) });
    setMissing('');
  };

  return (
    <div class="provider-editor stack" data-testid="provider-editor">
      <Show when={props.isNew}>
        <div class="provider-presets" role="group" aria-label="Presets" data-testid="provider-presets">
          <span class="muted small">Start from</span>
          <For each={PROVIDER_PRESETS}>
            {(p) => (
              <button type="button" class="chip" aria-pressed={preset()?.id === p.id} onClick={() => usePreset(p)}>
                {p.name}
              </button>
            )}
          </For>
        </div>
      </Show>
      <label>
        Name
        <input type="text" aria-label="Provider name" ref={(el) => props.focusOnOpen === 'name' && queueMicrotask(() => el.focus())} value={draft.name} onInput={(e) => setDraft('name', e.currentTarget.value)} />
      </label>
      <label>
        Base URL
        <input
          type="url"
          aria-label="Base URL"
          value={draft.baseURL}
          placeholder="https://… or http://127.0.0.1:PORT/v1"
          aria-describedby="provider-hint"
          onInput={(e) => setDraft('baseURL', e.currentTarget.value)}
        />
      </label>
      <span id="provider-hint" class="muted small" data-testid="provider-hint">
        {preset()?.hint ?? 'The server’s OpenAI-compatible address, usually ending in /v1.'}
      </span>
      {/* The field names itself ("Model"); a <label> around it would also swallow clicks meant for Load models. */}
      <div>
        <span aria-hidden="true">Model</span>
        <div class="row">
          <ModelCombobox value={draft.model} models={models()} onChange={(m) => setDraft('model', m)} handle={(h) => (modelField = h)} />
          <button type="button" onClick={() => void fetchModels()}>
            Load models
          </button>
        </div>
      </div>
      <label>
        API key <span class="muted small">({noKeyring() ? 'no keychain here' : 'kept in the OS keychain'}, never in the settings file)</span>
        <input
          type="password"
          aria-label="API key"
          autocomplete="off"
          value={apiKey()}
          placeholder="none"
          onFocus={(e) => !keyChanged() || e.currentTarget.select()}
          onInput={(e) => setApiKey(e.currentTarget.value)}
        />
      </label>
      <Show when={noKeyring()}>
        {(secrets) => (
          <div class="small" data-testid="no-keyring">
            <span class="badge warn">no keyring</span>{' '}
            {secrets().backend === 'session'
              ? 'There is no system keyring, so a key entered here is kept only until Tooldesk stops (never on disk).'
              : 'There is no system keyring, so a key cannot be stored.'}
            <Show when={secrets().detail}>
              <details class="muted">
                <summary>Why, and how to fix it</summary>
                {secrets().detail}
              </details>
            </Show>
          </div>
        )}
      </Show>
      <Show when={missing()}>
        <div class="small error-text" role="alert" data-testid="provider-missing">
          {missing()}
        </div>
      </Show>
      <div class="row">
        <button type="button" class="primary" onClick={() => void persist()} ref={(el) => props.focusOnOpen === 'save' && queueMicrotask(() => el.focus())} data-testid="provider-save">
          Save
        </button>
        <button type="button" disabled={busy()} onClick={() => void runTest()}>
          {busy() ? 'Testing…' : 'Test'}
        </button>
        <span class="grow" />
        <Show
          when={!props.isNew}
          fallback={
            <button
              type="button"
              onClick={() => {
                drafts.forget(draft.id);
                props.onDeleted();
              }}
            >
              Cancel
            </button>
          }
        >
          <button type="button" class="danger" onClick={() => void remove()}>
            Remove
          </button>
        </Show>
      </div>
      <Show when={test()}>
        {(t) => (
          <div class={`small ${t().ok ? '' : 'error-text'}`}>
            <span class={`badge ${t().ok ? 'ok' : 'err'}`}>{t().ok ? 'OK' : 'failed'}</span> {t().message}
            {/* A successful test's message already names the latency. */}
            {!t().ok && t().latencyMs !== undefined ? ` (${Math.round(t().latencyMs!)} ms)` : ''}
          </div>
        )}
      </Show>
    </div>
  );
}
