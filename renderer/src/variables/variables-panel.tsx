import { For, Show, createEffect, createResource, createSignal, on } from 'solid-js';
import { VARIABLE_TYPES, type VariableInfo, type VariableType } from '../../../shared/variables.ts';
import { useApp } from '../store/app-context.tsx';
import { formatAge, formatSize } from '../ui/format.ts';
import { VariableViewer } from './variable-viewer.tsx';
import { variableTypeLabel } from './variable-labels.ts';
import { useNow } from '../ui/clock.ts';
import './variables.css';
import { Icon } from '../ui/icons.tsx';
import { BreakableName } from '../ui/breakable-name.tsx';

/** The session's variables: filter by type, search, open (paged), copy $VAR_REF, delete. */
export function VariablesPanel(props: { focus: string | null; onFocusHandled: () => void }) {
  const app = useApp();
  const now = useNow();
  const [type, setType] = createSignal<VariableType | ''>('');
  const [search, setSearch] = createSignal('');
  const [open, setOpen] = createSignal<string | null>(null);
  const sessionId = () => app.state.activeSessionId;
  const version = () => (sessionId() ? (app.state.chats[sessionId()!]?.variablesVersion ?? 0) : 0);

  const [list, { refetch }] = createResource(
    () => (sessionId() ? { sessionId: sessionId()!, type: type(), search: search().trim(), version: version() } : null),
    async (q) => (await app.guard(() => app.api.listVariables({ sessionId: q.sessionId, ...(q.type ? { type: q.type } : {}), ...(q.search ? { search: q.search } : {}) }))) ?? [],
  );

  createEffect(
    on(
      () => props.focus,
      (name) => {
        if (!name) return;
        setOpen(name);
        props.onFocusHandled();
      },
    ),
  );

  const remove = async (v: VariableInfo) => {
    const id = sessionId();
    if (!id || v.type === 'RULE') return;
    const deleted = await app.guard(async () => {
      await app.api.deleteVariable({ sessionId: id, name: v.name });
      return true;
    });
    if (!deleted) return;
    if (open() === v.name) setOpen(null);
    await refetch();
  };

  return (
    <div class="variables-panel stack" data-testid="variables-panel">
      <div class="row">
        <select aria-label="Filter by type" value={type()} onChange={(e) => setType(e.currentTarget.value as VariableType | '')}>
          <option value="">All types</option>
          <For each={VARIABLE_TYPES}>{(t) => <option value={t}>{variableTypeLabel(t)}</option>}</For>
        </select>
        <input type="search" class="grow" placeholder="Search variables" aria-label="Search variables" value={search()} onInput={(e) => setSearch(e.currentTarget.value)} />
      </div>
      <Show when={open() && sessionId()}>
        <VariableViewer sessionId={sessionId()!} name={open()!} onClose={() => setOpen(null)} />
      </Show>
      <table class="var-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>Size</th>
            <th>Age</th>
            <th />
          </tr>
        </thead>
        <tbody>
          <For each={list() ?? []} fallback={<tr><td colSpan={5} class="muted small">No variables in this session yet.</td></tr>}>
            {(v) => (
              <tr class={open() === v.name ? 'selected' : ''} data-testid="variable-row" data-name={v.name}>
                <td>
                  <button type="button" class="link var-name mono" onClick={() => setOpen(v.name)} title={v.desc ? `${v.name}\n${v.desc}` : v.name}>
                    <BreakableName name={v.name} />
                  </button>
                </td>
                <td>
                  <span class="badge" title={v.type}>{variableTypeLabel(v.type)}</span>
                </td>
                <td class="small">{formatSize(v.size)}</td>
                <td class="small muted">{formatAge(v.updatedAt, now())}</td>
                <td>
                  <Show when={v.type !== 'RULE'}>
                    <button type="button" class="icon" aria-label={`Delete ${v.name}`} title="Delete" onClick={() => void remove(v)}>
                      <Icon name="trash" />
                    </button>
                  </Show>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}
