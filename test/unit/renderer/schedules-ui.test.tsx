// The schedules in the app: the Inbox badge follows `schedules.changed`, Approve answers through
// the API; schedule chats leave the main list; Settings → Schedules adds one and shows the error.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library';
import type { SchedulesView } from '../../../shared/api-schedules.ts';
import type { SessionInfo } from '../../../shared/chat.ts';
import type { InboxItem, ScheduleInfo } from '../../../shared/schedules.ts';
import { mountApp } from './mount-app.tsx';

const chat: SessionInfo = { id: 'sched-chat', title: 'Schedule: nightly', createdAt: 1, updatedAt: 5, messageCount: 4 };
const first: SessionInfo = { id: 's1', title: 'First chat', createdAt: 1, updatedAt: 9, messageCount: 1 };
const info: ScheduleInfo = { config: { name: 'nightly', prompt: 'p', every: '1d' }, nextRunAt: Date.UTC(2026, 10, 29, 9), sessionId: 'sched-chat', lastRun: { id: 'run-abcdef', status: 'waiting', startedAt: 1 } };
const item: InboxItem = { id: 'q-1234', runId: 'run-abcdef', schedule: 'nightly', sessionId: 'sched-chat', kind: 'approval', callId: 'c1', toolName: 'script_echo', args: { text: 'hi' }, askedAt: Date.now() };

describe('schedules in the app', () => {
  it('shows the Inbox badge, answers from the Inbox, and lists schedule chats apart', async () => {
    const view: SchedulesView = { schedules: [info], inbox: [item] };
    const { calls, emit } = await mountApp({
      listSessions: () => [first, chat],
      listSchedules: () => view,
      answerInbox: () => ({ ...info.lastRun, status: 'done' }),
    });
    const badge = await screen.findByTestId('inbox-badge');
    expect(badge).toHaveTextContent('1');
    expect(screen.getAllByTestId('session-item').map((li) => li.querySelector('.session-title')!.textContent)).toEqual(['First chat']);
    expect(screen.getByTestId('schedule-chat')).toHaveTextContent('nightly');
    expect(screen.getByTestId('schedule-chat')).toHaveTextContent('last run waiting');

    fireEvent.click(screen.getByTestId('inbox-toggle'));
    const row = screen.getByTestId('inbox-item');
    expect(row).toHaveTextContent('Run script_echo(text="hi")');
    fireEvent.click(within(row).getByTestId('inbox-approve'));
    await waitFor(() => expect(calls.answerInbox).toHaveBeenCalledWith({ id: 'q-1234', decision: 'approve' }));
    emit({ type: 'schedules.changed', schedules: [{ ...info, lastRun: { ...info.lastRun!, status: 'done' } }], inbox: [] });
    await waitFor(() => expect(screen.queryByTestId('inbox-badge')).toBeNull());
  });

  it('Settings → Schedules adds a schedule and shows what the runtime refused', async () => {
    let refuse = true;
    const { calls } = await mountApp({
      listSchedules: () => ({ schedules: [info], inbox: [] }),
      saveSchedule: () => {
        if (refuse) throw new Error('schedule.every: "5x" is not a duration');
        return { schedules: [info], inbox: [] };
      },
    });
    fireEvent.click(screen.getByTestId('tab-settings'));
    const section = await screen.findByTestId('schedules-section');
    await waitFor(() => expect(within(section).getByTestId('schedule-status')).toHaveTextContent('Waiting for you'));
    fireEvent.input(within(section).getByLabelText('Schedule name'), { target: { value: 'digest' } });
    fireEvent.input(within(section).getByLabelText('Interval (30m, 2h, 1d)'), { target: { value: '5x' } });
    fireEvent.input(within(section).getByLabelText('Prompt'), { target: { value: 'Summarise' } });
    fireEvent.click(within(section).getByText('Add schedule'));
    await within(section).findByText('schedule.every: "5x" is not a duration');
    refuse = false;
    fireEvent.input(within(section).getByLabelText('Interval (30m, 2h, 1d)'), { target: { value: '2h' } });
    fireEvent.click(within(section).getByText('Add schedule'));
    await waitFor(() => expect(calls.saveSchedule).toHaveBeenLastCalledWith({ schedule: { name: 'digest', prompt: 'Summarise', every: '2h', onAsk: 'pause' } }));
    // The working folder is a field too (the runtime checks it is absolute).
    fireEvent.input(within(section).getByLabelText('Schedule name'), { target: { value: 'notes' } });
    fireEvent.input(within(section).getByLabelText('Prompt'), { target: { value: 'Tidy' } });
    fireEvent.input(within(section).getByLabelText('Working folder (optional)'), { target: { value: '/home/me/notes' } });
    fireEvent.click(within(section).getByText('Add schedule'));
    await waitFor(() => expect(calls.saveSchedule).toHaveBeenLastCalledWith({ schedule: { name: 'notes', prompt: 'Tidy', every: '1d', onAsk: 'pause', cwd: '/home/me/notes' } }));
  });

  it('opens the run\'s chat when the app says a desktop notification was clicked', async () => {
    const { calls, emit } = await mountApp({ listSessions: () => [first, chat], listSchedules: () => ({ schedules: [info], inbox: [] }) });
    await screen.findByTestId('schedule-chat');
    calls.openSession!.mockClear();
    emit({ type: 'schedules.open', sessionId: 'sched-chat' });
    await waitFor(() => expect(calls.openSession).toHaveBeenCalledWith({ sessionId: 'sched-chat' }));
  });
});
