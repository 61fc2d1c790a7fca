// The schedules and the Inbox as the server has them: loaded once, then kept in step with the
// `schedules.changed` events. Each component that shows them calls this (Settings → Schedules,
// the sidebar's Inbox and schedule chats), so none depends on where the others are mounted.
import { createSignal, onCleanup, onMount } from 'solid-js';
import type { SchedulesView } from '../../../shared/api-schedules.ts';
import { useApp } from '../store/app-context.tsx';

export function useSchedules(): () => SchedulesView | undefined {
  const app = useApp();
  const [view, setView] = createSignal<SchedulesView>();
  onMount(() => {
    const off = app.api.onEvent((event) => {
      if (event.type === 'schedules.changed') setView({ schedules: event.schedules, inbox: event.inbox });
    });
    onCleanup(off);
    // A process without schedules answers UnavailableError: nothing to show then.
    app.api.listSchedules().then(setView, () => undefined);
  });
  return view;
}
