// The Electron app's desktop notifications of scheduled runs, with a fake `Notification` class in
// place of Electron's (which cannot run here): one per notice with its title and body, none where
// the platform has none or for other events, and a click opens the run's chat.
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api.ts';
import { scheduleNotifier, type NotificationClass, type NotificationLike } from '../../../electron/main/schedule-notifications.ts';

/** A stand-in for Electron's Notification: records what was made, shown, and lets a test click. */
function fakeNotificationClass(supported = true) {
  const made: Array<{ options: { title: string; body: string }; shown: boolean; click(): void }> = [];
  class FakeNotification implements NotificationLike {
    readonly #clicks: Array<() => void> = [];
    readonly #record: (typeof made)[number];
    constructor(options: { title: string; body: string }) {
      this.#record = { options, shown: false, click: () => this.#clicks.forEach((listener) => listener()) };
      made.push(this.#record);
    }
    static isSupported(): boolean {
      return supported;
    }
    on(event: 'click', listener: () => void): this {
      if (event === 'click') this.#clicks.push(listener);
      return this;
    }
    show(): void {
      this.#record.shown = true;
    }
  }
  return { Notification: FakeNotification satisfies NotificationClass, made };
}

const notice: ApiEvent = { type: 'schedules.notice', title: 'Schedule nightly is waiting for you', body: 'Run script_echo?', sessionId: 'sched-chat', itemId: 'q-1' };

describe('schedule notifications (Electron adapter)', () => {
  it('raises one notification per notice with its title and body; a click opens the run\'s chat', () => {
    const { Notification, made } = fakeNotificationClass();
    const opened: string[] = [];
    const notify = scheduleNotifier({ Notification, openChat: (id) => opened.push(id) });
    notify(notice);
    notify({ type: 'schedules.changed', schedules: [], inbox: [] });
    notify({ type: 'sessions.changed', sessions: [] });
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ options: { title: 'Schedule nightly is waiting for you', body: 'Run script_echo?' }, shown: true });
    expect(opened).toEqual([]);
    made[0]!.click();
    expect(opened).toEqual(['sched-chat']);
  });

  it('raises nothing where the platform has no notifications', () => {
    const { Notification, made } = fakeNotificationClass(false);
    scheduleNotifier({ Notification, openChat: () => {} })(notice);
    expect(made).toEqual([]);
  });

  it('a click whose chat cannot open is logged, never thrown into Electron', () => {
    const { Notification, made } = fakeNotificationClass();
    const logged: string[] = [];
    scheduleNotifier({ Notification, openChat: () => { throw new Error('window gone'); }, log: (m) => logged.push(m) })(notice);
    expect(() => made[0]!.click()).not.toThrow();
    expect(logged).toEqual(["opening the run's chat failed: window gone"]);
  });
});
