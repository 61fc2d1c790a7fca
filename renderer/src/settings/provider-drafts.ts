// Unsaved provider forms outlive the Settings panel (issue 25 §2): Esc, the close button or
// another tab closes the panel, and opening it again shows the form as it was, typed key
// included (held in this window's memory only, like the field itself). Save, Cancel and Remove
// end a draft; nothing here is ever written to disk. One set per app (per window).
import { createSignal, type Accessor, type Setter } from 'solid-js';
import type { ProviderInfo, TooldeskApi } from '../../../shared/api.ts';
import type { ProviderConfig } from '../../../shared/settings.ts';
import { useApp } from '../store/app-context.tsx';

export interface ProviderDraft {
  provider: ProviderConfig;
  /** What the API key field holds (the stored key's mask when untouched). */
  apiKey: string;
}

export interface ProviderDrafts {
  /** The "+ Add provider" form open now (null: none). */
  adding: Accessor<ProviderInfo | null>;
  setAdding: Setter<ProviderInfo | null>;
  /** The stored provider whose editor is open. */
  editing: Accessor<string | null>;
  setEditing: Setter<string | null>;
  get(id: string): ProviderDraft | undefined;
  keep(id: string, draft: ProviderDraft): void;
  forget(id: string): void;
}

const byApp = new WeakMap<TooldeskApi, ProviderDrafts>();

function createProviderDrafts(): ProviderDrafts {
  const drafts = new Map<string, ProviderDraft>();
  const [adding, setAdding] = createSignal<ProviderInfo | null>(null);
  const [editing, setEditing] = createSignal<string | null>(null);
  return {
    adding,
    setAdding,
    editing,
    setEditing,
    get: (id) => drafts.get(id),
    keep: (id, draft) => void drafts.set(id, { provider: { ...draft.provider }, apiKey: draft.apiKey }),
    forget: (id) => void drafts.delete(id),
  };
}

export function useProviderDrafts(): ProviderDrafts {
  const { api } = useApp();
  let drafts = byApp.get(api);
  if (!drafts) byApp.set(api, (drafts = createProviderDrafts()));
  return drafts;
}
