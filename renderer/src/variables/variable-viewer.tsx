import { Show, createResource, createSignal } from 'solid-js';
import { Icon } from '../ui/icons.tsx';
import { useApp } from '../store/app-context.tsx';
import { copyText } from '../ui/copy-text.ts';
import { formatSize, varRef } from '../ui/format.ts';
import { prettyValue, variableTypeLabel } from './variable-labels.ts';
import { BreakableName } from '../ui/breakable-name.tsx';

const PAGE_CHARS = 20_000;

/** One variable's full value, a page at a time for big ones. */
export function VariableViewer(props: { sessionId: string; name: string; onClose: () => void }) {
  const app = useApp();
  const [page, setPage] = createSignal(0);
  const [copied, setCopied] = createSignal(false);
  const [slice] = createResource(
    () => ({ sessionId: props.sessionId, name: props.name, start: page() * PAGE_CHARS }),
    async (q) => (await app.guard(() => app.api.readVariable({ sessionId: q.sessionId, name: q.name, start: q.start, length: PAGE_CHARS }))) ?? null,
  );
  const pages = () => Math.max(1, Math.ceil((slice()?.total ?? 0) / PAGE_CHARS));
  const ref = () => varRef(props.name);

  const copy = async () => {
    setCopied(await copyText(ref()));
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <div class="variable-viewer card stack" data-testid="variable-viewer" data-name={props.name}>
      <div class="row">
        <strong class="grow mono small var-full-name" title={props.name}>
          <BreakableName name={props.name} />
        </strong>
        <button type="button" onClick={() => props.onClose()} aria-label="Close variable">
          <Icon name="close" />
        </button>
      </div>
      <div class="row wrap small">
        <code class="var-ref" data-testid="var-ref">{ref()}</code>
        <button type="button" onClick={() => void copy()} data-testid="copy-var-ref">
          {copied() ? 'Copied' : 'Copy $VAR_REF'}
        </button>
        <button type="button" onClick={() => app.insertIntoComposer(ref())} data-testid="insert-var-ref">
          Insert into message
        </button>
        <Show when={slice()}>
          <span class="muted">
            {variableTypeLabel(slice()!.variable.type)} · {formatSize(slice()!.total)}
          </span>
        </Show>
      </div>
      <Show when={slice()} fallback={<div class="muted small">{slice.loading ? 'Loading…' : 'Not found.'}</div>}>
        <pre class="plain var-value" data-testid="variable-value">{pages() > 1 ? slice()!.value : prettyValue(slice()!.value)}</pre>
        <Show when={pages() > 1}>
          <div class="row small">
            <button type="button" disabled={page() === 0} onClick={() => setPage(page() - 1)}>
              ‹ Prev
            </button>
            <span>
              Page {page() + 1} of {pages()} (characters {slice()!.start.toLocaleString()}–{(slice()!.start + slice()!.value.length).toLocaleString()})
            </span>
            <button type="button" disabled={page() + 1 >= pages()} onClick={() => setPage(page() + 1)}>
              Next ›
            </button>
          </div>
        </Show>
      </Show>
    </div>
  );
}
