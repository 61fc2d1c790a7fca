import { Show } from 'solid-js';
import type { TurnInterruption } from '../../../shared/chat.ts';
import { interruptionCause } from '../../../shared/interruption-text.ts';
import { useApp } from '../store/app-context.tsx';

/** What the turn was doing when Tooldesk stopped, and what Continue does about it. */
export function interruptionText(interruption: TurnInterruption): string {
  const cause = interruptionCause(interruption);
  switch (interruption.during) {
    case 'answer':
      return `${cause}. Continue lets the model go on; Retry answers your message again.`;
    case 'approval':
      return `${cause}. Continue asks again.`;
    case 'tool':
      return `${cause}. Continue asks before running it again.`;
  }
}

/** What happens to messages typed while Tooldesk was down: the user decides when they go. */
export function queuedText(count: number): string {
  const [what, it] = count === 1 ? ['Your message waiting below is', 'it'] : [`Your ${count} messages waiting below are`, 'they are'];
  return `${what} not sent yet: Send sends ${it === 'it' ? 'it' : 'them'} now, instead of continuing; after Continue or Retry ${it === 'it' ? 'it is' : 'they are'} sent once their answer is done.`;
}

/** The turn a restart cut off: "Interrupted", with Continue and Retry. */
export function InterruptedNotice(props: { interruption: TurnInterruption; running: boolean }) {
  const app = useApp();
  return (
    <div class="notice interrupted" role="group" aria-label="Interrupted turn" data-testid="turn-interrupted">
      <strong>Interrupted</strong> <span>{interruptionText(props.interruption)}</span>
      <Show when={app.queueHeld(app.state.activeSessionId)}>
        <p class="small interrupted-queued" data-testid="interrupted-queued">
          {queuedText(app.queued(app.state.activeSessionId).length)}
        </p>
      </Show>
      <div class="row interrupted-actions">
        <button type="button" class="primary" disabled={props.running} onClick={() => void app.continueTurn()}>
          Continue
        </button>
        <Show when={props.interruption.retryFrom}>
          {(from) => (
            <button type="button" disabled={props.running} onClick={() => void app.regenerate(from())}>
              Retry
            </button>
          )}
        </Show>
      </div>
    </div>
  );
}
