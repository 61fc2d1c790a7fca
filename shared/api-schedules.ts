// The API methods of schedules and the Inbox (shared/api.ts extends ApiMethods with these).
import type { InboxAnswer, InboxItem, ScheduleConfig, ScheduleInfo, ScheduleRun } from './schedules.ts';

export interface SchedulesView {
  schedules: ScheduleInfo[];
  /** The questions paused runs wait on, oldest first. */
  inbox: InboxItem[];
}

export interface ScheduleApiMethods {
  listSchedules: { request: Record<string, never>; response: SchedulesView };
  /** Adds or replaces (by name) a schedule; checked like `tooldesk schedule add` (an error names the field). */
  saveSchedule: { request: { schedule: ScheduleConfig }; response: SchedulesView };
  removeSchedule: { request: { name: string }; response: SchedulesView };
  /** Runs it now; resolves when the run ends or pauses. */
  runSchedule: { request: { name: string }; response: ScheduleRun };
  /** Answers an Inbox question; resolves when its run ends or pauses again. */
  answerInbox: { request: { id: string } & InboxAnswer; response: ScheduleRun };
}

export const SCHEDULE_API_METHODS = ['listSchedules', 'saveSchedule', 'removeSchedule', 'runSchedule', 'answerInbox'] as const;

/** What the API's event stream says about schedules. */
export type ScheduleApiEvent =
  | ({ type: 'schedules.changed' } & SchedulesView)
  /** Something needs the user (a question) or went wrong (a failed run): a desktop notification. */
  | { type: 'schedules.notice'; title: string; body: string; sessionId: string; itemId?: string }
  /** The app's own window only (electron/main): a click on a desktop notification; the page opens that chat. */
  | { type: 'schedules.open'; sessionId: string };
