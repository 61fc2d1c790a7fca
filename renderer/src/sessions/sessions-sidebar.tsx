import { For, Show, createEffect, createResource, createSignal, on } from 'solid-js';
import type { SessionInfo } from '../../../shared/chat.ts';
import { useApp } from '../store/app-context.tsx';
import { formatAge } from '../ui/format.ts';
import { useNow } from '../ui/clock.ts';
import './sessions.css';
import { Icon } from '../ui/icons.tsx';
import { confirmDialog } from '../ui/dialog.tsx';
import { messageCountText, orderSessions } from './order-sessions.ts';
import { ScheduleChats, useScheduleChatIds } from '../schedules/schedule-chats.tsx';

/** The row's flag buttons, and their keys on a focused row. */
const FLAG_ACTIONS = [
  { flag: 'pinned', label: 'Pin', undo: 'Unpin', title: 'Pin to the top', keys: 'Alt+P', code: 'KeyP', icon: 'pin' },
  { flag: 'archived', label: 'Archive', undo: 'Unarchive', title: 'Archive: hide from the list', keys: 'Alt+A', code: 'KeyA', icon: 'archive' },
] as const;

/**
 * Sessions: new, open, rename, delete, search (Ctrl/Cmd+K focuses the search box). The list is one
 * tab stop (roving tabindex): arrow keys, Home and End move inside it, Enter opens and puts the
 * cursor in the message box, F2 renames, Delete deletes (after asking), Alt+P pins, Alt+A archives. Pinned chats come first;
 * archived ones are listed only in the "Archived" view.
 */
export function SessionsSidebar(props: { searchRef: (el: HTMLInputElement) => void }) {
  const app = useApp();
  const now = useNow();
  const [query, setQuery] = createSignal('');
  /** The row that holds the list's one tab stop (-1: the open session's row, else the first). */
  const [cursor, setCursor] = createSignal(-1);
  const [editing, setEditing] = createSignal<string | null>(null);
  const [hits] = createResource(
    () => query().trim() || null,
    (q) => app.api.searchSessions({ query: q }).catch(() => []),
  );
  const [archivedView, setArchivedView] = createSignal(false);
  // The schedules' chats are listed apart (ScheduleChats, below the list); a search finds them too.
  const scheduleChats = useScheduleChatIds();
  const sorted = () => orderSessions(app.state.sessions, archivedView()).filter((session) => !scheduleChats().has(session.id));
  const archivedCount = () => app.state.sessions.filter((s) => s.archived).length;
  const shown = (): { session: SessionInfo; snippet?: string }[] =>
    query().trim() ? (hits() ?? []) : sorted().map((session) => ({ session }));
  const stop = () => {
    const list = shown();
    if (cursor() >= 0 && cursor() < list.length) return cursor();
    return Math.max(0, list.findIndex((h) => h.session.id === app.state.activeSessionId));
  };
  let listEl!: HTMLUListElement;
  let searchEl!: HTMLInputElement;
  /** Moves the list's tab stop to row `index` and the keyboard with it. */
  const focusRow = (index: number) => {
    setCursor(index);
    const button = listEl.querySelectorAll<HTMLButtonElement>('button.session-open')[index];
    button?.focus();
    button?.scrollIntoView?.({ block: 'nearest' });
  };

  createEffect(on(query, () => setCursor(-1), { defer: true }));
  const openAndFocus = async (session: SessionInfo) => {
    await app.openSession(session.id);
    app.focusComposer();
  };
  /** Arrow keys go down into the list, Enter opens the first match, Esc clears. */
  const onSearchKey = (e: KeyboardEvent) => {
    const count = shown().length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (count === 0) return;
      e.preventDefault();
      focusRow(e.key === 'ArrowDown' ? 0 : count - 1);
    } else if (e.key === 'Enter' && !e.isComposing) {
      const hit = shown()[0];
      if (!hit) return;
      e.preventDefault();
      void openAndFocus(hit.session);
    } else if (e.key === 'Escape' && query()) {
      e.preventDefault();
      setQuery('');
    }
  };
  /** Keys on a row of the list (its open button has the focus). */
  const onRowKey = (e: KeyboardEvent, index: number, session: SessionInfo) => {
    const count = shown().length;
    const move = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: count - 1 }[e.key];
    if (move !== undefined) {
      e.preventDefault();
      if (move < 0) searchEl.focus();
      else focusRow(Math.min(move, count - 1));
    } else if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      void openAndFocus(session);
    } else if (e.altKey && FLAG_ACTIONS.some((a) => a.code === e.code)) {
      e.preventDefault();
      void toggle(session, FLAG_ACTIONS.find((a) => a.code === e.code)!.flag);
    } else if (e.key === 'F2') {
      e.preventDefault();
      setEditing(session.id);
    } else if (e.key === 'Delete') {
      e.preventDefault();
      void remove(session);
    }
  };

  /**
   * The keyboard back on the row whose title was edited (the field it was in is gone), now and
   * when the renamed list is drawn again (its event may come after the rename's answer).
   */
  let refocusId: string | null = null;
  const tryRefocus = () =>
    queueMicrotask(() => {
      if (!refocusId || (document.activeElement && document.activeElement !== document.body)) return;
      listEl.querySelector<HTMLElement>(`button.session-open[data-session-id="${CSS.escape(refocusId)}"]`)?.focus();
    });
  const refocusRow = (id: string) => {
    refocusId = id;
    tryRefocus();
    setTimeout(() => refocusId === id && (refocusId = null), 2000);
  };
  // On whatever redraws the rows (`shown()` makes new row objects, so <For> rebuilds them all and
  // the focused button is gone), not on the list's identity: a store update keeps that the same.
  createEffect(on(shown, tryRefocus, { defer: true }));
  const rename = async (session: SessionInfo, title: string) => {
    // Enter and the blur that follows both land here: only the first one counts.
    if (editing() !== session.id) return;
    setEditing(null);
    refocusRow(session.id);
    if (!title.trim() || title === session.title) return;
    await app.guard(() => app.api.renameSession({ sessionId: session.id, title: title.trim() }));
    // The list is drawn again with the new title: the keyboard goes back to the row once more.
    refocusRow(session.id);
  };
  const toggle = (session: SessionInfo, flag: 'pinned' | 'archived') => app.guard(() => app.api.setSessionFlags({ sessionId: session.id, [flag]: !session[flag] }));
  const remove = async (session: SessionInfo) => {
    if (!(await confirmDialog({ title: `Delete “${session.title}”?`, message: 'Its messages and variables are removed.', confirmLabel: 'Delete', danger: true }))) return;
    const deleted = await app.guard(async () => {
      await app.api.deleteSession({ sessionId: session.id });
      return true;
    });
    if (!deleted || app.state.activeSessionId !== session.id) return;
    const next = orderSessions(app.state.sessions, false).find((s) => s.id !== session.id);
    if (next) await app.openSession(next.id);
    else await app.newSession();
  };

  return (
    <nav class="sessions" aria-label="Sessions">
      <div class="sessions-head">
        <button
          type="button"
          class="primary grow"
          onClick={() => void app.newSession().then(() => app.focusComposer())}
          title="New chat (the message box gets the cursor)"
          data-testid="new-session"
        >
          + New chat
        </button>
      </div>
      <input
        ref={(el) => {
          searchEl = el;
          props.searchRef(el);
        }}
        type="search"
        placeholder="Search sessions (Ctrl+K)"
        aria-label="Search sessions"
        value={query()}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={onSearchKey}
        aria-controls="session-list"
        data-testid="session-search"
      />
      <ul class="session-list" id="session-list" aria-label="Sessions" ref={listEl}>
        <For each={shown()} fallback={<li class="muted small empty">{query() ? 'No match.' : 'No sessions yet.'}</li>}>
          {(hit, index) => (
            <li
              class={hit.session.id === app.state.activeSessionId ? 'active' : ''}
              data-testid="session-item"
            >
              <Show
                when={editing() === hit.session.id}
                fallback={
                  <button
                    type="button"
                    class="session-open"
                    data-session-id={hit.session.id}
                    tabIndex={index() === stop() ? 0 : -1}
                    aria-current={hit.session.id === app.state.activeSessionId ? 'page' : undefined}
                    aria-keyshortcuts="F2 Delete Alt+P Alt+A"
                    onClick={() => void app.openSession(hit.session.id)}
                    onDblClick={() => setEditing(hit.session.id)}
                    onFocus={() => setCursor(index())}
                    onKeyDown={(e) => onRowKey(e, index(), hit.session)}
                  >
                    <span class="session-title">
                      <Show when={hit.session.pinned}>
                        <span class="session-flag" title="Pinned" data-testid="session-pinned">
                          <Icon name="pin" size={12} />
                        </span>
                      </Show>
                      {hit.session.title || 'Untitled'}
                    </span>
                    <span class="muted small">
                      {hit.snippet ?? `${messageCountText(hit.session)} · ${formatAge(hit.session.updatedAt, now())}`}
                      {hit.session.archived ? ' · archived' : ''}
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
                    if (e.key === 'Escape') {
                      // Ends the rename only: no panel or turn behind it hears this Esc.
                      e.preventDefault();
                      e.stopPropagation();
                      setEditing(null);
                      refocusRow(hit.session.id);
                    }
                  }}
                  onBlur={(e) => void rename(hit.session, e.currentTarget.value)}
                />
              </Show>
              <div class="session-actions">
                <For each={FLAG_ACTIONS}>
                  {(action) => (
                    <button
                      type="button"
                      class="icon"
                      tabIndex={-1}
                      title={`${hit.session[action.flag] ? action.undo : action.title} (${action.keys})`}
                      aria-label={`${hit.session[action.flag] ? action.undo : action.label} ${hit.session.title}`}
                      onClick={() => void toggle(hit.session, action.flag)}
                    >
                      <Icon name={action.icon} />
                    </button>
                  )}
                </For>
                <button type="button" class="icon" tabIndex={-1} title="Rename (F2)" aria-label={`Rename ${hit.session.title}`} onClick={() => setEditing(hit.session.id)}>
                  <Icon name="pencil" />
                </button>
                <button type="button" class="icon" tabIndex={-1} title="Delete (Del)" aria-label={`Delete ${hit.session.title}`} onClick={() => void remove(hit.session)}>
                  <Icon name="trash" />
                </button>
              </div>
            </li>
          )}
        </For>
      </ul>
      <ScheduleChats />
      <Show when={archivedCount() > 0 || archivedView()}>
        <button type="button" class="archived-toggle small" aria-pressed={archivedView()} onClick={() => setArchivedView(!archivedView())} data-testid="archived-toggle">
          {archivedView() ? '← All chats' : `Archived (${archivedCount()})`}
        </button>
      </Show>
    </nav>
  );
}
