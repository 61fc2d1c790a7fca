// The schedules' chats, grouped apart in the sidebar (below the other chats): one per schedule,
// with its last run's status.
import { For, Show } from 'solid-js';
import { useApp } from '../store/app-context.tsx';
import { useSchedules } from './use-schedules.ts';

/** The ids of the schedules' chats, for the sidebar to leave them out of its main list. */
export function useScheduleChatIds(): () => Set<string> {
  const view = useSchedules();
  return () => new Set((view()?.schedules ?? []).flatMap((info) => (info.sessionId ? [info.sessionId] : [])));
}

export function ScheduleChats() {
  const app = useApp();
  const view = useSchedules();
  const chats = () => (view()?.schedules ?? []).filter((info) => info.sessionId);
  return (
    <Show when={chats().length > 0}>
      <div class="schedule-chats" data-testid="schedule-chats">
        <h4 class="muted">Schedules</h4>
        <ul class="session-list" aria-label="Schedule chats">
          <For each={chats()}>
            {(info) => (
              <li class={info.sessionId === app.state.activeSessionId ? 'active' : ''} data-testid="schedule-chat">
                <button type="button" class="session-open" onClick={() => void app.openSession(info.sessionId!)}>
                  <span class="session-title">{info.config.name}</span>
                  <span class="muted small">{info.lastRun ? `last run ${info.lastRun.status}${info.lastRun.late ? ' (late)' : ''}` : 'no run yet'}</span>
                </button>
              </li>
            )}
          </For>
        </ul>
      </div>
    </Show>
  );
}
