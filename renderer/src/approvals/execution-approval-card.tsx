import { For, Show, createSignal } from 'solid-js';
import type { ApprovalDecision, ApprovalRequest, JsonSchema } from '../../../shared/tools.ts';
import { ArgList } from './arg-list.tsx';
import { ArgsEditor, type EditedArgs } from './args-editor.tsx';
import { ApprovalCardFrame } from './approval-card-frame.tsx';
import { createCardState } from './create-card-state.ts';
import { CallsLikeThis } from './calls-like-this.tsx';

/**
 * Inline card asking whether a tool call may run. Enter approves once (once the user moved focus
 * here), Escape rejects. "Edit arguments" (when `checkArgs` is given) lets the user change what
 * runs: the approval then carries the edited arguments. Esc never answers from inside the editor
 * (or on its toggle): it closes the editor and drops the edits, as "Undo edits" does; Esc in the
 * reason box clears and closes it.
 * Contract: `onAnswer` is called at most once per card.
 */
export function ExecutionApprovalCard(props: {
  request: ApprovalRequest;
  onAnswer: (decision: ApprovalDecision) => void;
  autofocus?: boolean;
  /** The tool's parameters, for the edit form (raw JSON only without it). */
  schema?: JsonSchema;
  /** Validates edited arguments in the runtime; without it the card cannot edit. */
  checkArgs?: (args: Record<string, unknown>) => Promise<{ ok: boolean; message?: string }>;
}) {
  const [editing, setEditing] = createSignal(false);
  const [edited, setEdited] = createSignal<EditedArgs | null>(null);
  const [showReason, setShowReason] = createSignal(false);
  let editToggle: HTMLButtonElement | undefined;
  let reasonButton: HTMLButtonElement | undefined;
  const withEdits = (decision: ApprovalDecision): ApprovalDecision => {
    const e = edited();
    return editing() && decision.decision !== 'reject' && e?.ok ? { ...decision, args: e.args } : decision;
  };
  const { reason, setReason, answered, answer, reject, focusRef, onKeyDown, onKeyUp, onFocusIn } = createCardState({
    onAnswer: (decision) => props.onAnswer(withEdits(decision)),
    get autofocus() {
      return props.autofocus;
    },
    // While editing, only arguments that validate can be approved.
    canApprove: () => !editing() || edited()?.ok === true,
    onReasonEscape: () => {
      setShowReason(false);
      reasonButton?.focus();
    },
  });
  /** Opening the editor takes the keyboard to its first field; closing it gives it back to the toggle. */
  const setEditor = (open: boolean) => {
    setEditing(open);
    if (!open) setEdited(null);
    queueMicrotask(() => (open ? editToggle?.closest('.approval-card')?.querySelector<HTMLElement>('[data-args-editor] :is(input, textarea, select)')?.focus() : editToggle?.focus()));
  };
  const onCardKeyDown = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (e.key === 'Escape' && editing() && (target === editToggle || target.closest('[data-args-editor]'))) {
      e.preventDefault();
      e.stopPropagation();
      setEditor(false);
      return;
    }
    onKeyDown(e);
  };
  const [likeThis, setLikeThis] = createSignal(false);
  const blocked = () => answered() || (editing() && edited()?.ok !== true);

  return (
    <ApprovalCardFrame
      request={props.request}
      testId="execution-approval"
      onKeyDown={onCardKeyDown}
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
      <Show
        when={editing() && props.checkArgs}
        fallback={<ArgList args={props.request.args} {...(props.request.varRefs ? { varRefs: props.request.varRefs } : {})} />}
      >
        {(check) => <ArgsEditor schema={props.schema} args={props.request.args} check={check()} onChange={setEdited} />}
      </Show>
      <Show when={props.request.detail?.length}>
        <ul class="small approval-detail" data-testid="approval-detail">
          <For each={props.request.detail}>{(line) => <li>{line}</li>}</For>
        </ul>
      </Show>
      <Show when={props.request.note}>
        <p class="small warn-text" data-testid="approval-note">
          {/^Asked again\b/.test(props.request.note ?? '') ? props.request.note : `Asked because ${props.request.note}`}
        </p>
      </Show>
      <Show when={likeThis()}>
        <CallsLikeThis
          toolName={props.request.toolName}
          args={props.request.args}
          disabled={blocked()}
          onAllow={(rule) => answer({ decision: 'always', rule })}
          onCancel={() => setLikeThis(false)}
        />
      </Show>
      <Show when={showReason()}>
        <label class="small">
          Reason (sent to the model)
          <textarea
            rows={2}
            value={reason()}
            aria-label="Reason for rejecting"
            data-reason
            onInput={(e) => setReason(e.currentTarget.value)}
            ref={(el) => queueMicrotask(() => el.focus())}
          />
        </label>
      </Show>
      <div class="row wrap actions">
        <button ref={focusRef} type="button" class="primary" disabled={blocked()} onClick={() => answer({ decision: 'once' })}>
          Approve once
        </button>
        <button type="button" disabled={blocked()} onClick={() => answer({ decision: 'session' })}>
          Approve for this session
        </button>
        <button type="button" disabled={blocked()} onClick={() => answer({ decision: 'always' })}>
          Always allow this tool
        </button>
        <button type="button" disabled={blocked()} aria-expanded={likeThis()} onClick={() => setLikeThis(!likeThis())}>
          Always allow → …calls like this
        </button>
        <span class="grow" />
        <Show when={!showReason()}>
          <button type="button" class="link small" ref={reasonButton} disabled={answered()} onClick={() => setShowReason(true)}>
            Add reason…
          </button>
        </Show>
        <button type="button" class="danger" disabled={answered()} onClick={reject}>
          Reject
        </button>
        {/* After the answers, so Tab from "Approve once" reaches them in the order they always had. */}
        <Show when={props.checkArgs}>
          <button type="button" class="small" ref={editToggle} aria-pressed={editing()} disabled={answered()} onClick={() => setEditor(!editing())}>
            {editing() ? 'Undo edits' : 'Edit arguments'}
          </button>
        </Show>
      </div>
    </ApprovalCardFrame>
  );
}
