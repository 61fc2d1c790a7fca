// Desktop notifications for scheduled runs. In the Electron app the main process raises them
// (electron/main/schedule-notifications.ts) and a click sends `schedules.open`, which opens the
// run's chat here; in browser mode the page raises them, with the browser's Notification API, once
// the user allowed it (the opt-in button below asks; nothing is asked without a click).
import { Show, createSignal, onCleanup, onMount } from 'solid-js';
import { useApp } from '../store/app-context.tsx';

const supported = (): boolean => typeof window !== 'undefined' && 'Notification' in window;

/** Mounted once (app.tsx): shows `schedules.notice` events as browser notifications in browser mode; opens the chat a desktop notification's click names. */
export function ScheduleNotifier(props: { browserMode: () => boolean }) {
  const app = useApp();
  onMount(() => {
    const off = app.api.onEvent((event) => {
      if (event.type === 'schedules.open') return void app.openSession(event.sessionId);
      if (event.type !== 'schedules.notice' || !props.browserMode() || !supported() || Notification.permission !== 'granted') return;
      const note = new Notification(event.title, { body: event.body, tag: event.itemId ?? event.sessionId });
      note.onclick = () => {
        window.focus();
        void app.openSession(event.sessionId);
      };
    });
    onCleanup(off);
  });
  return null;
}

/** "Notify me": asks the browser for permission (browser mode; Electron needs none). */
export function NotificationOptIn() {
  const [permission, setPermission] = createSignal(supported() ? Notification.permission : 'denied');
  const ask = async () => setPermission(await Notification.requestPermission());
  return (
    <Show when={supported() && !('tooldesk' in window) && permission() === 'default'}>
      <button type="button" class="small" onClick={() => void ask()} data-testid="notify-opt-in">
        Notify me when a run waits
      </button>
    </Show>
  );
}
