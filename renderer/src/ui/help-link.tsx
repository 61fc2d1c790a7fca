// The "?" beside a Settings section or a tool problem: opens the matching page of the user docs
// (docs/ in the repository) through the runtime, which hands it to the system as it does the tools
// folder. What happened is said beside it for a few seconds (and to screen readers).
import { Show, createSignal, onCleanup } from 'solid-js';
import { useApp } from '../store/app-context.tsx';
import './help-link.css';

/** `page`: a path under docs/ (shared/docs-pages.ts); `topic`: what it helps with, for its label. */
export function HelpLink(props: { page: string; topic: string; text?: string }) {
  const app = useApp();
  const [note, setNote] = createSignal<string | null>(null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  const open = async () => {
    const answer = await app.guard(() => app.api.openDocs({ page: props.page }));
    if (!answer) return;
    setNote(answer.opened ? `Opened docs/${props.page}` : `No viewer could be started here: the page is ${answer.path}`);
    clearTimeout(timer);
    timer = setTimeout(() => setNote(null), 6000);
  };
  return (
    <span class="help-link">
      <button type="button" class={props.text ? 'link small' : 'link small help-q'} aria-label={`Help: ${props.topic} (docs/${props.page})`} title={`Open docs/${props.page}`} data-testid="help-link" data-docs={props.page} onClick={() => void open()}>
        {props.text ?? '?'}
      </button>
      <span class="help-link-note small" role="status">
        <Show when={note()}>{note()}</Show>
      </span>
    </span>
  );
}
