// The row under a Settings section's edited rows or form (rules, tool sets, schedules): the
// section's own buttons, its primary Save/Add button, and the problem the last attempt met (an
// alert, so a screen reader says it). The section keeps the draft (draft-rows.ts) and the problem.
import { Show, type JSX } from 'solid-js';

export function DraftSaveRow(props: { label: string; disabled: boolean; onSave: () => void; problem: string; children?: JSX.Element }) {
  return (
    <div class="row">
      {props.children}
      <button type="button" class="primary" disabled={props.disabled} onClick={() => props.onSave()}>
        {props.label}
      </button>
      <Show when={props.problem}>
        <span class="small error-text" role="alert">
          {props.problem}
        </span>
      </Show>
    </div>
  );
}
