import { For, Show, createEffect, createResource, createSignal, on } from 'solid-js';
import type { SessionInfo } from '../../../shared/chat.ts';
import { useApp } from '../store/app-context.tsx';
import { formatAge } from '../ui/format.ts';
import { useNow } from '../ui/clock.ts';
import './sessions.css';
import { Icon } from '../ui/icons.tsx';
import { confirmDialog } from '../ui/dialog.tsx';

/** Sessions: new, open, rename, delete, search (Ctrl/Cmd+K focuses the search box). */
export function SessionsSidebar(props: { searchRef: (el: HTMLInputElement) => void }) {
  const app = useApp();
  const now = useNow();
  const [query, setQuery] = createSignal('');
  /** The row the arrow keys moved to from the search box (-1: none yet). */
  const [cursor, setCursor] = createSignal(-1);
  const [editing, setEditing] = createSignal<string | null>(null);
  const [hits] = createResource(
    () => query().trim() || null,
    (q) => app.api.searchSessions({ query: q }).catch(() => []),
  );
  const sorted = () => [...app.state.sessions].sort((a, b) => b.updatedAt - a.updatedAt);
  const shown = (): { session: SessionInfo; snippet?: string }[] =>
    query().trim() ? (hits() ?? []) : sorted().map((session) => ({ session }));

  createEffect(on(query, () => setCursor(-1), { defer: true }));
  const openAndFocus = async (session: SessionInfo) => {
    await app.openSession(session.id);
    app.focusComposer();
  };
  /** Arrow keys move through the list, Enter opens (the first match when none is chosen), Esc clears. */
  const onSearchKey = (e: KeyboardEvent) => {
    const count = shown().length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (count === 0) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setCursor((i) => (i < 0 ? (step > 0 ? 0 : count - 1) : (i + step + count) % count));
      document.getElementById(`session-option-${cursor()}`)?.scrollIntoView?.({ block: 'nearest' });
    } else if (e.key === 'Enter' && !e.isComposing) {
      const hit = shown()[Math.max(0, cursor())];
      if (!hit) return;
      e.preventDefault();
      void openAndFocus(hit.session);
    } else if (e.key === 'Escape') {
      setQuery('');
    }
  };

  const rename = async (session: SessionInfo, title: string) => {
    // Enter and the blur that follows both land here: only the first one counts.
    if (editing() !== session.id) return;
    setEditing(null);
    if (!title.trim() || title === session.title) return;
    await app.guard(() => app.api.renameSession({ sessionId: session.id, title: title.trim() }));
  };
  const remove = async (session: SessionInfo) => {
    if (!(await confirmDialog({ title: `Delete “${session.title}”?`, message: 'Its messages and variables are removed.', confirmLabel: 'Delete', danger: true }))) return;
    const deleted = await app.guard(async () => {
      await app.api.deleteSession({ sessionId: session.id });
      return true;
    });
    if (!deleted || app.state.activeSessionId !== session.id) return;
    const next = sorted().find((s) => s.id !== session.id);
    if (next) await app.openSession(next.id);
    else await app.newSession();
  };

  return (
    <nav class="sessions" aria-label="Sessions">
      <div class="sessions-head">
        <button type="button" class="primary grow" onClick={() => void app.newSession()} data-testid="new-session">
          + New chat
        </button>
      </div>
      <input
        ref={props.searchRef}
        type="search"
        placeholder="Search sessions (Ctrl+K)"
        aria-label="Search sessions"
        value={query()}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={onSearchKey}
        role="combobox"
        aria-expanded={cursor() >= 0}
        aria-controls="session-list"
        aria-activedescendant={cursor() >= 0 ? `session-option-${cursor()}` : undefined}
        data-testid="session-search"
      />
      <ul class="session-list" id="session-list" role="listbox" aria-label="Sessions">
        <For each={shown()} fallback={<li class="muted small empty">{query() ? 'No match.' : 'No sessions yet.'}</li>}>
          {(hit, index) => (
            <li
              id={`session-option-${index()}`}
              class={hit.session.id === app.state.activeSessionId ? 'active' : ''}
              classList={{ cursor: index() === cursor() }}
              role="option"
              aria-selected={index() === cursor()}
              data-testid="session-item"
            >
              <Show
                when={editing() === hit.session.id}
                fallback={
                  <button type="button" class="session-open" onClick={() => void app.openSession(hit.session.id)} onDblClick={() => setEditing(hit.session.id)}>
                    <span class="session-title">{hit.session.title || 'Untitled'}</span>
                    <span class="muted small">
                      {hit.snippet ?? `${hit.session.messageCount} message${hit.session.messageCount === 1 ? '' : 's'} · ${formatAge(hit.session.updatedAt, now())}`}
                    </span>
                  </button>
                }
              >
                <input
                  type="text"
                  value={hit.session.title}
                  aria-label="Session title"
                  ref={(el) => queueMicrotask(() => el.select())}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') void rename(hit.session, e.currentTarget.value);
                    if (e.key === 'Escape') setEditing(null);
                  }}
                  onBlur={(e) => void rename(hit.session, e.currentTarget.value)}
                />
              </Show>
              <div class="session-actions">
                <button type="button" class="icon" title="Rename" aria-label={`Rename ${hit.session.title}`} onClick={() => setEditing(hit.session.id)}>
                  <Icon name="pencil" />
                </button>
                <button type="button" class="icon" title="Delete" aria-label={`Delete ${hit.session.title}`} onClick={() => void remove(hit.session)}>
                  <Icon name="trash" />
                </button>
              </div>
            </li>
          )}
        </For>
      </ul>
    </nav>
  );
}
