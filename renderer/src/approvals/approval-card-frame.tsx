import type { JSX } from 'solid-js';
import type { ApprovalRequest } from '../../../shared/tools.ts';
import { jumpToApprovalLabel } from './focus-if-idle.ts';
import { policyText } from './policy-text.ts';
import './approvals.css';

/**
 * The part both approval cards share: the labelled group, its header and why it asks. A card
 * does not take the keyboard from someone typing, so it announces itself instead (an alert that
 * screen readers read when it appears) and names the shortcut that jumps to it.
 */
export function ApprovalCardFrame(props: {
  request: ApprovalRequest;
  testId: 'execution-approval' | 'result-approval';
  badge: JSX.Element;
  title: JSX.Element;
  onKeyDown: (e: KeyboardEvent) => void;
  onKeyUp: (e: KeyboardEvent) => void;
  onFocusIn: (e: FocusEvent) => void;
  children: JSX.Element;
}) {
  const titleId = () => `approval-${props.request.id}-title`;
  const what = () => (props.testId === 'result-approval' ? `the result of ${props.request.toolName}` : `running ${props.request.toolName}`);
  return (
    <section
      class={props.testId === 'result-approval' ? 'approval-card card result' : 'approval-card card'}
      role="group"
      aria-labelledby={titleId()}
      data-testid={props.testId}
      data-request-id={props.request.id}
      onKeyDown={props.onKeyDown}
      onKeyUp={props.onKeyUp}
      onFocusIn={props.onFocusIn}
    >
      <span class="sr-only" role="alert" data-testid="approval-alert">
        Approval needed for {what()}. Press {jumpToApprovalLabel()} to go to it.
      </span>
      <header class="row">
        {props.badge}
        <h3 id={titleId()} class="grow">
          {props.title}
        </h3>
        <kbd class="muted small jump-hint" title="Jumps to the first card waiting for an answer">
          {jumpToApprovalLabel()}
        </kbd>
      </header>
      <p class="muted small">{policyText(props.request)}</p>
      {props.children}
    </section>
  );
}
