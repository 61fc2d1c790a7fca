import { For, Show, createEffect, createSignal } from 'solid-js';
import { charCount } from '../../approvals/fold-value.ts';
import { varRefsIn } from './slash-suggestions.ts';

export interface VarRefState {
  ref: string;
  name: string;
  /** null: no such variable; undefined: still looking. */
  chars: number | null | undefined;
}

/**
 * The `$VAR_REF{{name}}`s in the message being typed, as chips: the variable and its size (it is
 * expanded when sent), or flagged when unknown (the message is then not sent).
 */
export function createVarRefChips(text: () => string, lookup: ((name: string) => Promise<number | null>) | undefined) {
  const [refs, setRefs] = createSignal<VarRefState[]>([]);
  const known = new Map<string, number | null>();
  createEffect(() => {
    const found = varRefsIn(text());
    const sizeOf = (r: { inner: string; name: string }) => {
      const whole = known.get(r.inner);
      if (whole !== undefined && whole !== null) return whole;
      return r.inner === r.name ? whole : known.get(r.name);
    };
    setRefs(found.map((r) => ({ ref: r.ref, name: r.name, chars: sizeOf(r) })));
    if (!lookup) return;
    for (const r of found) {
      // Sizes found stay; a name not found is asked again (a tool call may have created it since).
      if (typeof sizeOf(r) === 'number') continue;
      void Promise.all([lookup(r.inner), r.inner === r.name ? Promise.resolve(null) : lookup(r.name)]).then(([whole, sliced]) => {
        known.set(r.inner, whole);
        if (r.inner !== r.name) known.set(r.name, sliced);
        setRefs((list) => list.map((x) => (x.ref === r.ref ? { ...x, chars: whole ?? sliced ?? null } : x)));
      });
    }
  });
  const unknown = () => refs().filter((r) => r.chars === null);
  return { refs, unknown };
}

export function VarRefChips(props: { refs: VarRefState[] }) {
  return (
    <Show when={props.refs.length > 0}>
      <div class="row wrap var-chips composer-chips" data-testid="composer-var-refs">
        <For each={props.refs}>
          {(r) => (
            <span class={r.chars === null ? 'var-chip unknown' : 'var-chip'} data-testid="composer-var-chip">
              <code>{r.name}</code>
              {r.chars === null ? ' · unknown variable: not sent' : r.chars === undefined ? ' · …' : ` · ${charCount(r.chars)}, expanded when sent`}
            </span>
          )}
        </For>
      </div>
    </Show>
  );
}
