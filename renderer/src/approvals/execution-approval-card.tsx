import { Show, createSignal } from 'solid-js';
import type { ApprovalDecision, ApprovalRequest } from '../../../shared/tools.ts';
import { ArgList } from './arg-list.tsx';
import { ApprovalCardFrame } from './approval-card-frame.tsx';
import { createCardState } from './create-card-state.ts';

/**
 * Inline card asking whether a tool call may run. Enter approves once (once the user moved focus
 * here), Escape rejects (with the reason typed so far). Contract: `onAnswer` is called at most
 * once per card.
 */
export function ExecutionApprovalCard(props: {
  request: ApprovalRequest;
  onAnswer: (decision: ApprovalDecision) => void;
  autofocus?: boolean;
}) {
  const { reason, setReason, answered, answer, reject, focusRef, onKeyDown, onKeyUp, onFocusIn } = createCardState(props);
  const [showReason, setShowReason] = createSignal(false);

  return (
    <ApprovalCardFrame
      request={props.request}
      testId="execution-approval"
      onKeyDown={onKeyDown}
      onKeyUp={onKeyUp}
      onFocusIn={onFocusIn}
      badge={<span class="badge warn">Approval needed</span>}
      title={
        <>
          Run <code>{props.request.toolName}</code>
          <span class="muted small"> · {props.request.groupName}</span>
        </>
      }
    >
      <ArgList args={props.request.args} />
      <Show when={showReason()}>
        <label class="small">
          Reason (sent to the model)
          <textarea
            rows={2}
            value={reason()}
            aria-label="Reason for rejecting"
            onInput={(e) => setReason(e.currentTarget.value)}
            ref={(el) => queueMicrotask(() => el.focus())}
          />
        </label>
      </Show>
      <div class="row wrap actions">
        <button ref={focusRef} type="button" class="primary" disabled={answered()} onClick={() => answer({ decision: 'once' })}>
          Approve once
        </button>
        <button type="button" disabled={answered()} onClick={() => answer({ decision: 'session' })}>
          Approve for this session
        </button>
        <button type="button" disabled={answered()} onClick={() => answer({ decision: 'always' })}>
          Always allow this tool
        </button>
        <span class="grow" />
        <Show when={!showReason()}>
          <button type="button" class="link small" disabled={answered()} onClick={() => setShowReason(true)}>
            Add reason…
          </button>
        </Show>
        <button type="button" class="danger" disabled={answered()} onClick={reject}>
          Reject
        </button>
      </div>
    </ApprovalCardFrame>
  );
}
