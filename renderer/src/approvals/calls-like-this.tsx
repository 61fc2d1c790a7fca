// "Always allow → calls like this": an allow rule for this tool, its tests prefilled from the
// arguments (a path's folder with `/**`, a URL's origin with `/*`, other text as it is), each
// editable or dropped before it is kept. Deny rules still win over it.
import { For, createSignal } from 'solid-js';
import type { RuleMatcher, ToolRule } from '../../../shared/permissions.ts';

interface Row {
  path: string;
  glob: string;
  use: boolean;
}

/** The pattern a value suggests. */
export function suggestedGlob(value: string): string {
  if (/^https?:\/\//i.test(value)) {
    try {
      return `${new URL(value).origin}/*`;
    } catch {
      return value;
    }
  }
  if (value.startsWith('/') || value.startsWith('~/')) {
    const cut = value.replace(/\/+$/, '').lastIndexOf('/');
    return cut > 0 ? `${value.slice(0, cut)}/**` : value;
  }
  return value.replace(/[*?[]/g, (c) => `[${c}]`);
}

export function rowsFromArgs(args: Record<string, unknown>): Row[] {
  return Object.entries(args)
    .filter((entry): entry is [string, string | number | boolean] => ['string', 'number', 'boolean'].includes(typeof entry[1]))
    .map(([path, value]) => ({ path, glob: typeof value === 'string' ? suggestedGlob(value) : String(value), use: true }));
}

export function CallsLikeThis(props: { toolName: string; args: Record<string, unknown>; disabled: boolean; onAllow: (rule: ToolRule) => void; onCancel: () => void }) {
  const [rows, setRows] = createSignal<Row[]>(rowsFromArgs(props.args));
  const update = (index: number, patch: Partial<Row>) => setRows(rows().map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const rule = (): ToolRule => {
    const where: RuleMatcher[] = rows()
      .filter((r) => r.use)
      .map((r) => ({ path: r.path, glob: r.glob }));
    return { action: 'allow', tool: props.toolName, ...(where.length ? { where } : {}) };
  };
  return (
    <fieldset class="calls-like-this" data-testid="calls-like-this">
      <legend class="small">Always allow {props.toolName} for calls like this (deny rules still win)</legend>
      <For each={rows()}>
        {(row, i) => (
          <label class="row small">
            <input type="checkbox" checked={row.use} aria-label={`Test ${row.path}`} onChange={(e) => update(i(), { use: e.currentTarget.checked })} />
            <code>{row.path}</code> matches
            <input type="text" class="grow" value={row.glob} aria-label={`Pattern for ${row.path}`} onInput={(e) => update(i(), { glob: e.currentTarget.value })} />
          </label>
        )}
      </For>
      <div class="row">
        <button type="button" class="primary" disabled={props.disabled} onClick={() => props.onAllow(rule())}>
          Allow calls like this
        </button>
        <button type="button" class="small" onClick={() => props.onCancel()}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
