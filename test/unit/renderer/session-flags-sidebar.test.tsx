// The sidebar with pinned and archived chats, and the count of the shown branch.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library';
import type { SessionInfo } from '../../../shared/chat.ts';
import { orderSessions } from '../../../renderer/src/sessions/order-sessions.ts';
import { mountApp } from './mount-app.tsx';

const session = (id: string, updatedAt: number, extra: Partial<SessionInfo> = {}): SessionInfo => ({ id, title: `Chat ${id}`, createdAt: 1, updatedAt, messageCount: 6, ...extra });
// The newest chat is archived: the app opens the newest of the others (s1).
const sessions = [session('s1', 80), session('old-pinned', 10, { pinned: true }), session('gone', 90, { archived: true }), session('s2', 70, { shownCount: 2 })];

describe('orderSessions', () => {
  it('pinned first, then newest first; archived only in the archived view', () => {
    expect(orderSessions(sessions, false).map((s) => s.id)).toEqual(['old-pinned', 's1', 's2']);
    expect(orderSessions(sessions, true).map((s) => s.id)).toEqual(['gone']);
  });
});

describe('sessions sidebar: pin and archive', () => {
  it('lists pinned on top, hides archived behind "Archived (N)", counts the shown branch, and sets flags', async () => {
    const { calls } = await mountApp({
      listSessions: () => sessions,
      openSession: (req: { sessionId: string }) => ({ session: sessions.find((s) => s.id === req.sessionId), messages: [], pendingApprovals: [], running: false }),
      setSessionFlags: (req: { sessionId: string }) => ({ ...sessions.find((s) => s.id === req.sessionId)!, ...req }),
    });
    const titles = () => screen.getAllByTestId('session-item').map((li) => li.querySelector('.session-title')!.textContent);
    await waitFor(() => expect(titles()).toEqual(['Chat old-pinned', 'Chat s1', 'Chat s2']));
    expect(within(screen.getAllByTestId('session-item')[0]!).getByTestId('session-pinned')).toBeInTheDocument();
    // Six messages in all, two on the branch shown.
    expect(screen.getAllByTestId('session-item')[2]).toHaveTextContent('2 messages');
    expect(screen.getAllByTestId('session-item')[1]).toHaveTextContent('6 messages');

    fireEvent.click(screen.getByRole('button', { name: 'Archived (1)' }));
    await waitFor(() => expect(titles()).toEqual(['Chat gone']));
    fireEvent.click(screen.getByRole('button', { name: 'Unarchive Chat gone' }));
    await waitFor(() => expect(calls.setSessionFlags).toHaveBeenCalledWith({ sessionId: 'gone', archived: false }));
    fireEvent.click(screen.getByTestId('archived-toggle'));
    await waitFor(() => expect(titles()).toHaveLength(3));

    fireEvent.click(screen.getByRole('button', { name: 'Pin Chat s1' }));
    await waitFor(() => expect(calls.setSessionFlags).toHaveBeenCalledWith({ sessionId: 's1', pinned: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Unpin Chat old-pinned' }));
    await waitFor(() => expect(calls.setSessionFlags).toHaveBeenLastCalledWith({ sessionId: 'old-pinned', pinned: false }));
    fireEvent.click(screen.getByRole('button', { name: 'Archive Chat s2' }));
    await waitFor(() => expect(calls.setSessionFlags).toHaveBeenLastCalledWith({ sessionId: 's2', archived: true }));
    // From the keyboard, on a focused row: Alt+P pins, Alt+A archives.
    const row = screen.getAllByTestId('session-item')[1]!.querySelector('button.session-open')!;
    fireEvent.keyDown(row, { key: 'π', code: 'KeyP', altKey: true });
    await waitFor(() => expect(calls.setSessionFlags).toHaveBeenLastCalledWith({ sessionId: 's1', pinned: true }));
    fireEvent.keyDown(row, { key: 'a', code: 'KeyA', altKey: true });
    await waitFor(() => expect(calls.setSessionFlags).toHaveBeenLastCalledWith({ sessionId: 's1', archived: true }));
  });
});
