// The sidebar's Inbox: the questions paused scheduled runs wait on, with a badge counting them.
// Approve or Reject answers one and resumes its run (where it stopped, whenever that is); "Open
// chat" shows the run in the schedule's chat, where the same card can be answered too.
import { For, Show, createSignal } from 'solid-js';
import type { InboxItem } from '../../../shared/schedules.ts';
import { useApp } from '../store/app-context.tsx';
import { compressArgs, formatAge } from '../ui/format.ts';
import { useNow } from '../ui/clock.ts';
import { NotificationOptIn } from './schedule-notifier.tsx';
import { useSchedules } from './use-schedules.ts';
import './schedules.css';

export function Inbox() {
  const app = useApp();
  const view = useSchedules();
  const now = useNow();
  const [open, setOpen] = createSignal(false);
  const [busy, setBusy] = createSignal<string | null>(null);
  const items = () => view()?.inbox ?? [];
  const answer = async (item: InboxItem, decision: 'approve' | 'reject') => {
    setBusy(item.id);
    try {
      await app.guard(() => app.api.answerInbox({ id: item.id, decision, ...(decision === 'reject' ? { reason: 'Rejected from the Inbox.' } : {}) }));
    } finally {
      setBusy(null);
    }
  };
  const what = (item: InboxItem) =>
    item.kind === 'elicitation' ? `${item.toolName} asks: ${item.message ?? ''}` : `${item.kind === 'result-approval' ? 'Send the result of' : 'Run'} ${item.toolName}(${compressArgs(item.args ?? {}, 80)})`;

  return (
    <Show when={view()}>
      <div class="inbox">
        <button type="button" class="inbox-toggle" aria-expanded={open()} aria-controls="inbox-list" onClick={() => setOpen(!open())} data-testid="inbox-toggle">
          Inbox
          <Show when={items().length > 0}>
            <span class="badge" aria-label={`${items().length} waiting`} data-testid="inbox-badge">
              {items().length}
            </span>
          </Show>
        </button>
        <Show when={open()}>
          <div id="inbox-list" class="inbox-list" role="region" aria-label="Inbox" data-testid="inbox-list">
            <For each={items()} fallback={<p class="small muted">No scheduled run waits for you.</p>}>
              {(item) => (
                <div class="inbox-item" data-testid="inbox-item">
                  <div class="small">
                    <strong>{item.schedule}</strong> <span class="muted">· {formatAge(item.askedAt, now())}</span>
                  </div>
                  <div class="small inbox-what">{what(item)}</div>
                  <div class="row">
                    <button type="button" class="small primary" disabled={busy() === item.id} onClick={() => void answer(item, 'approve')} data-testid="inbox-approve">
                      Approve
                    </button>
                    <button type="button" class="small danger" disabled={busy() === item.id} onClick={() => void answer(item, 'reject')}>
                      Reject
                    </button>
                    <button type="button" class="small" onClick={() => void app.openSession(item.sessionId)}>
                      Open chat
                    </button>
                  </div>
                </div>
              )}
            </For>
            <NotificationOptIn />
          </div>
        </Show>
      </div>
    </Show>
  );
}
