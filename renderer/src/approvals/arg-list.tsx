import { For, Show } from 'solid-js';
import type { VarRefUse } from '../../../shared/tool-inspection.ts';
import { charCount, valueText } from './fold-value.ts';

/**
 * The resolved arguments as key → value rows, every value in full (long ones scroll in their
 * box). A value that came from a `$VAR_REF` carries the variable's name and size next to it.
 */
export function ArgList(props: { args: Record<string, unknown>; varRefs?: VarRefUse[] }) {
  const entries = () => Object.entries(props.args ?? {});
  const refsOf = (key: string) => (props.varRefs ?? []).filter((r) => r.arg === key);
  return (
    <Show when={entries().length > 0} fallback={<div class="muted small">No arguments.</div>}>
      <dl class="arg-list">
        <For each={entries()}>
          {([key, value]) => (
            <>
              <dt>{key}</dt>
              <dd>
                <Show when={refsOf(key).length > 0}>
                  <div class="row wrap var-chips">
                    <For each={refsOf(key)}>
                      {(ref) => (
                        <span class="var-chip" data-testid="var-ref-chip" title="This value was read from a variable ($VAR_REF)">
                          from <code>{ref.name}</code>
                          {ref.chars >= 0 ? ` · ${charCount(ref.chars)}` : ''}
                        </span>
                      )}
                    </For>
                  </div>
                </Show>
                <pre class="plain arg-value" data-testid="arg-value" aria-label={`Value of ${key}`}>
                  {valueText(value)}
                </pre>
              </dd>
            </>
          )}
        </For>
      </dl>
    </Show>
  );
}
