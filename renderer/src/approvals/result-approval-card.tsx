import type { ApprovalDecision, ApprovalRequest } from '../../../shared/tools.ts';
import { ApprovalCardFrame } from './approval-card-frame.tsx';
import { createCardState } from './create-card-state.ts';

/** Inline card asking whether a tool's result may be sent to the model. Enter approves, Escape rejects. */
export function ResultApprovalCard(props: {
  request: ApprovalRequest;
  onAnswer: (decision: ApprovalDecision) => void;
  autofocus?: boolean;
}) {
  const { reason, setReason, answered, answer, reject, focusRef, onKeyDown, onKeyUp, onFocusIn } = createCardState(props);
  const ok = () => props.request.result?.status === 'SUCCESS';

  return (
    <ApprovalCardFrame
      request={props.request}
      testId="result-approval"
      onKeyDown={onKeyDown}
      onKeyUp={onKeyUp}
      onFocusIn={onFocusIn}
      badge={<span class={`badge ${ok() ? 'accent' : 'err'}`}>{ok() ? 'Result' : 'Error result'}</span>}
      title={
        <>
          Send the result of <code>{props.request.toolName}</code> to the model?
        </>
      }
    >
      <pre class="plain">{props.request.result?.text ?? ''}</pre>
      <label class="small">
        Reason if rejected (optional, sent to the model)
        <textarea rows={1} data-reason value={reason()} aria-label="Reason for rejecting the result" onInput={(e) => setReason(e.currentTarget.value)} />
      </label>
      <div class="row actions">
        <button ref={focusRef} type="button" class="primary" disabled={answered()} onClick={() => answer({ decision: 'once' })}>
          Approve
        </button>
        <span class="grow" />
        <button type="button" class="danger" disabled={answered()} onClick={reject}>
          Reject
        </button>
      </div>
    </ApprovalCardFrame>
  );
}
