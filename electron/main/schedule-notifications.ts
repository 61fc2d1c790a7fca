// Desktop notifications of scheduled runs in the Electron app. The runtime says when a run needs the
// user or failed (`schedules.notice`, once per question); this raises the notification with
// Electron's `Notification`, passed in so a test can hand it a fake (Electron does not run there).
// Contract:
//   - one notification per `schedules.notice`, with the event's title and body, and nothing for any
//     other event nor where the platform has no notifications (isSupported() false)
//   - a click opens the run's chat: `openChat(sessionId)` (which shows the window and asks the page
//     to open that chat); it never throws into Electron's event loop
import type { ApiEvent } from '../../shared/api.ts';

/** What is used of an Electron Notification instance. */
export interface NotificationLike {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

/** What is used of Electron's `Notification` class. */
export interface NotificationClass {
  new (options: { title: string; body: string }): NotificationLike;
  isSupported(): boolean;
}

export interface ScheduleNotifierDeps {
  Notification: NotificationClass;
  /** Contract: shows the window with the chat of `sessionId`; may throw (logged). */
  openChat(sessionId: string): void;
  log?: (message: string) => void;
}

/** A listener for the runtime's events that raises the schedules' notifications. */
export function scheduleNotifier(deps: ScheduleNotifierDeps): (event: ApiEvent) => void {
  return (event) => {
    if (event.type !== 'schedules.notice' || !deps.Notification.isSupported()) return;
    const note = new deps.Notification({ title: event.title, body: event.body });
    const { sessionId } = event;
    note.on('click', () => {
      try {
        deps.openChat(sessionId);
      } catch (error) {
        deps.log?.(`opening the run's chat failed: ${(error as Error).message}`);
      }
    });
    note.show();
  };
}
