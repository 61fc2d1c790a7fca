// Schedules as the API serves them (Settings → Schedules, the Inbox, notifications): a view that
// follows the scheduler's changes, edits of the settings' list checked like the CLI checks them,
// and runs and answers sent to the process that owns the home's schedules when it is another one.
import type { SchedulesView, ScheduleApiEvent } from '../../../shared/api-schedules.ts';
import type { InboxAnswer, InboxItem, ScheduleConfig, ScheduleRun } from '../../../shared/schedules.ts';
import type { Disposer } from '../base/emitter.ts';
import type { SettingsStore } from '../store/settings-store.ts';
import { askOwner } from './control-client.ts';
import { checkSchedule } from './schedule-config.ts';
import { ScheduleError, type Scheduler } from './scheduler.ts';

export interface ScheduleService {
  view(): SchedulesView;
  save(config: ScheduleConfig): SchedulesView;
  remove(name: string): SchedulesView;
  run(name: string): Promise<ScheduleRun>;
  answer(id: string, answer: InboxAnswer): Promise<ScheduleRun>;
  /** Contract: listeners never throw into the scheduler; returns a disposer. */
  onEvent(listener: (event: ScheduleApiEvent) => void): Disposer;
}

export function createScheduleService(scheduler: Scheduler, settings: SettingsStore, home: string): ScheduleService {
  const view = (): SchedulesView => ({ schedules: scheduler.list(), inbox: scheduler.inbox() });
  const write = (next: ScheduleConfig[]): SchedulesView => {
    settings.set('schedules', next);
    return view();
  };
  return {
    view,
    save(config) {
      const existing = (settings.get().schedules ?? []).find((s) => s.name === config.name);
      const sameTiming = existing && existing.every === config.every && existing.cron === config.cron;
      const entry: ScheduleConfig = { ...config, createdAt: sameTiming && existing.createdAt !== undefined ? existing.createdAt : Date.now() };
      const checked = checkSchedule(entry, 'schedule', Date.now());
      if (checked.problem) throw new ScheduleError(checked.problem);
      const list = settings.get().schedules ?? [];
      return write(existing ? list.map((s) => (s.name === config.name ? entry : s)) : [...list, entry]);
    },
    remove(name) {
      const list = settings.get().schedules ?? [];
      if (!list.some((s) => s.name === name)) throw new ScheduleError(`no schedule "${name}"`);
      return write(list.filter((s) => s.name !== name));
    },
    async run(name) {
      if (!scheduler.owner) {
        const remote = await askOwner<ScheduleRun>(home, { path: '/run', body: { name } });
        if (remote) return remote;
      }
      return scheduler.runNow(name);
    },
    async answer(id, answer) {
      if (!scheduler.owner) {
        const remote = await askOwner<ScheduleRun>(home, { path: '/answer', body: { id, ...answer } });
        if (remote) return remote;
      }
      return scheduler.answer(id, answer);
    },
    onEvent(listener) {
      const offScheduler = scheduler.onEvent((event) => {
        if (event.type === 'changed') listener({ type: 'schedules.changed', ...view() });
        else if (event.type === 'notice') listener({ type: 'schedules.notice', ...noticeText(event.run, event.item), sessionId: event.run.sessionId, ...(event.item ? { itemId: event.item.id } : {}) });
      });
      // Edits of the list (here, or by the CLI) change what Settings shows.
      const offSettings = settings.onDidChange(() => listener({ type: 'schedules.changed', ...view() }));
      return () => {
        offScheduler();
        offSettings();
      };
    },
  };
}

/** The notification's words: what the run waits for, or why it failed. */
export function noticeText(run: ScheduleRun, item?: InboxItem): { title: string; body: string } {
  if (!item) return { title: `Schedule ${run.schedule} failed`, body: run.reason ?? 'The run failed.' };
  const what = item.kind === 'elicitation' ? `${item.toolName} asks: ${item.message ?? ''}` : `${item.kind === 'result-approval' ? 'Send the result of' : 'Run'} ${item.toolName}?`;
  return { title: `Schedule ${run.schedule} is waiting for you`, body: what };
}
