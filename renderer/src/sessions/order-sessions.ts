// What the sidebar lists and in which order: pinned chats first, then the rest, newest first
// within each; archived chats only in the "Archived" view (and in search results, marked).
import type { SessionInfo } from '../../../shared/chat.ts';

export function orderSessions(sessions: readonly SessionInfo[], archivedView: boolean): SessionInfo[] {
  return sessions
    .filter((s) => Boolean(s.archived) === archivedView)
    .sort((a, b) => Number(Boolean(b.pinned)) - Number(Boolean(a.pinned)) || b.updatedAt - a.updatedAt);
}

/** "N messages" of the shown branch (other branches are not counted). */
export function messageCountText(session: SessionInfo): string {
  const count = session.shownCount ?? session.messageCount;
  return `${count} message${count === 1 ? '' : 's'}`;
}
