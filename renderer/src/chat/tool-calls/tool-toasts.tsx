// Toasts a running tool raised (Open WebUI's `notification` event): shown over the open chat,
// each gone after TOOL_TOAST_MS or when closed. The reducer keeps at most MAX_TOOL_TOASTS.
import { For, onCleanup, onMount } from 'solid-js';
import type { ToolToast } from '../../store/app-state.ts';
import { Icon } from '../../ui/icons.tsx';

/** How long a toast stays, ms (an error a little longer: it may need reading). */
export const TOOL_TOAST_MS = { info: 6000, success: 6000, warning: 10_000, error: 12_000 } as const;

export function ToolToasts(props: { toasts: ToolToast[]; onDismiss: (id: string) => void }) {
  return (
    <div class="tool-toasts" role="status" aria-live="polite">
      <For each={props.toasts}>{(toast) => <ToolToastItem toast={toast} onDismiss={() => props.onDismiss(toast.id)} />}</For>
    </div>
  );
}

function ToolToastItem(props: { toast: ToolToast; onDismiss: () => void }) {
  onMount(() => {
    const timer = setTimeout(props.onDismiss, TOOL_TOAST_MS[props.toast.level]);
    onCleanup(() => clearTimeout(timer));
  });
  return (
    <div class={`tool-toast ${props.toast.level}`} data-testid="tool-toast" data-level={props.toast.level}>
      <span class="grow">
        {props.toast.toolName ? <strong>{props.toast.toolName}: </strong> : null}
        {props.toast.text}
      </span>
      <button type="button" class="icon" aria-label="Dismiss" onClick={() => props.onDismiss()}>
        <Icon name="close" />
      </button>
    </div>
  );
}
