import { Show, createSignal } from 'solid-js';

/** Past this many lines a message is folded (a long paste would push the chat off screen). */
export const FOLD_LINES = 20;

/** Plain text that folds past FOLD_LINES lines behind "Show all" (and unfolds back with "Show less"). */
export function CollapsibleText(props: { text: string; class?: string }) {
  const [expanded, setExpanded] = createSignal(false);
  const lines = () => props.text.split('\n');
  const long = () => lines().length > FOLD_LINES;
  const shown = () => (long() && !expanded() ? lines().slice(0, FOLD_LINES).join('\n') : props.text);
  return (
    <>
      <div class={props.class ?? 'plain-text'} classList={{ folded: long() && !expanded() }}>
        {shown()}
      </div>
      <Show when={long()}>
        <button type="button" class="link small fold-toggle" aria-expanded={expanded()} onClick={() => setExpanded(!expanded())}>
          {expanded() ? 'Show less' : `Show all (${lines().length} lines)`}
        </button>
      </Show>
    </>
  );
}
