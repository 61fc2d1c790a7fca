// In-app dialogs in place of window.confirm / prompt / alert (Electron has no window.prompt, and
// the native ones block the whole window). One modal at a time, queued; it keeps the keyboard
// inside it (a modal <dialog>), Esc or Cancel answers "no", and focus goes back where it was.
import { For, Show, createSignal, onMount } from 'solid-js';
import { render } from 'solid-js/web';
import { useLayer } from './layers.ts';

export interface DialogOptions {
  title: string;
  message?: string;
  /** The button that says yes: "Delete", "Save", "OK". */
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action: its button is red. */
  danger?: boolean;
}

type Request = DialogOptions & {
  kind: 'confirm' | 'prompt' | 'alert';
  input?: { label: string; value: string; placeholder?: string };
  resolve: (answer: string | null) => void;
};

const [queue, setQueue] = createSignal<Request[]>([]);
let mounted = false;
const ask = (request: Omit<Request, 'resolve'>) => {
  // The host mounts itself on first use: any component can ask, inside the App or alone in a test.
  if (!mounted) {
    mounted = true;
    const root = document.createElement('div');
    root.className = 'dialog-root';
    document.body.append(root);
    render(() => <DialogHost />, root);
  }
  return new Promise<string | null>((resolve) => setQueue((q) => [...q, { ...request, resolve }]));
};

/** Asks yes or no: resolves true on the confirm button, false on Cancel, Esc or the backdrop. */
export const confirmDialog = (options: DialogOptions): Promise<boolean> => ask({ kind: 'confirm', ...options }).then((a) => a !== null);

/** Asks for a line of text: resolves the text (trimmed), or null when cancelled or left empty. */
export const promptDialog = (options: DialogOptions & { label: string; value?: string; placeholder?: string }): Promise<string | null> =>
  ask({ kind: 'prompt', ...options, input: { label: options.label, value: options.value ?? '', ...(options.placeholder ? { placeholder: options.placeholder } : {}) } }).then((a) =>
    a?.trim() ? a.trim() : null,
  );

/** Tells something that needs an OK. */
export const alertDialog = (options: DialogOptions): Promise<void> => ask({ kind: 'alert', ...options }).then(() => undefined);

/** Shows the queue's first request (mounted once, by the first ask). */
function DialogHost() {
  const answer = (value: string | null) => {
    const [first, ...rest] = queue();
    setQueue(rest);
    first?.resolve(value);
  };
  return (
    <For each={queue().slice(0, 1)}>{(request) => <Dialog request={request} onAnswer={answer} />}</For>
  );
}

let counter = 0;

function Dialog(props: { request: Request; onAnswer: (value: string | null) => void }) {
  const id = `dialog-${++counter}`;
  const [value, setValue] = createSignal(props.request.input?.value ?? '');
  const before = document.activeElement as HTMLElement | null;
  let el!: HTMLDialogElement;
  let field: HTMLInputElement | undefined;
  let confirm!: HTMLButtonElement;
  let done = false;
  const finish = (yes: boolean) => {
    if (done) return;
    done = true;
    if (el.open && typeof el.close === 'function') el.close();
    props.onAnswer(yes ? (props.request.kind === 'prompt' ? value() : 'yes') : null);
    // Where the keyboard was, unless the answer moved it on (a deleted row is gone).
    if (before?.isConnected && (document.activeElement === document.body || document.activeElement === null)) before.focus();
  };
  useLayer(() => finish(false));
  onMount(() => {
    // jsdom has no showModal(): the open attribute shows it there.
    if (typeof el.showModal === 'function') el.showModal();
    else el.setAttribute('open', '');
    (field ?? confirm).focus();
    field?.select();
  });
  const r = props.request;
  return (
    <dialog
      ref={el}
      class="app-dialog"
      aria-labelledby={`${id}-title`}
      {...(r.message ? { 'aria-describedby': `${id}-message` } : {})}
      data-testid="app-dialog"
      onCancel={(e) => {
        e.preventDefault();
        finish(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Tab') {
          // The page around is inert; past the last control Tab would leave for the browser's own UI.
          const controls = [...el.querySelectorAll<HTMLElement>('input, button:not(:disabled)')];
          const at = controls.indexOf(document.activeElement as HTMLElement);
          const next = at < 0 ? 0 : (at + (e.shiftKey ? controls.length - 1 : 1)) % controls.length;
          e.preventDefault();
          controls[next]?.focus();
          return;
        }
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        finish(false);
      }}
      onClick={(e) => {
        // A click on the backdrop (outside the dialog's box) cancels.
        const box = el.getBoundingClientRect();
        if (e.target === el && (e.clientX < box.left || e.clientX > box.right || e.clientY < box.top || e.clientY > box.bottom)) finish(false);
      }}
    >
      <form
        class="stack"
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          finish(true);
        }}
      >
        <h2 id={`${id}-title`}>{r.title}</h2>
        <Show when={r.message}>
          <p id={`${id}-message`} class="dialog-message">
            {r.message}
          </p>
        </Show>
        <Show when={r.input}>
          {(input) => (
            <label class="stack">
              {input().label}
              <input ref={field} type="text" value={value()} placeholder={input().placeholder ?? ''} onInput={(e) => setValue(e.currentTarget.value)} data-testid="app-dialog-input" />
            </label>
          )}
        </Show>
        <div class="row dialog-buttons">
          <Show when={r.kind !== 'alert'}>
            <button type="button" onClick={() => finish(false)} data-testid="app-dialog-cancel">
              {r.cancelLabel ?? 'Cancel'}
            </button>
          </Show>
          <button ref={confirm} type="submit" class={r.danger ? 'danger' : 'primary'} disabled={r.kind === 'prompt' && !value().trim()} data-testid="app-dialog-confirm">
            {r.confirmLabel ?? 'OK'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
