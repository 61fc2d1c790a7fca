// "Always allow → calls like this": an allow rule for this tool, its tests prefilled from the
// arguments (a path's folder with `/**`, a URL's origin with `/*`, other text as it is), each
// editable or dropped before it is kept. Only the argument that says what the call touches (a
// path, a URL, a command; else the first text argument) is ticked at first: "read files in notes"
// should not also pin how many lines. The card says in words what the rule will match. Deny rules
// still win over it.
import { For, createSignal } from 'solid-js';
import type { RuleMatcher, ToolRule } from '../../../shared/permissions.ts';
import { ruleMatchText } from './rule-match-text.ts';

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

/** Argument names that say what a call touches. */
const TOUCHES = /(^|[_-])(path|paths|file|filename|filepath|dir|directory|folder|url|uri|href|link|command|cmd|script|src|source|dest|destination|target)$/i;
const LOOKS_LIKE_PATH_OR_URL = /^(\/|~\/|\.{1,2}\/|[A-Za-z]:[\\/]|[a-z][a-z0-9+.-]*:\/\/)/i;

/** The argument a rule "like this" is about: a path, URL or command by name or by value, else the first text. */
export function mainArgument(args: Record<string, unknown>): string | undefined {
  const texts = Object.entries(args).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return (texts.find(([key]) => TOUCHES.test(key.replace(/([a-z0-9])([A-Z])/g, '$1_$2'))) ?? texts.find(([, value]) => LOOKS_LIKE_PATH_OR_URL.test(value)) ?? texts[0])?.[0];
}

export function rowsFromArgs(args: Record<string, unknown>): Row[] {
  const main = mainArgument(args);
  return Object.entries(args)
    .filter((entry): entry is [string, string | number | boolean] => ['string', 'number', 'boolean'].includes(typeof entry[1]))
    .map(([path, value]) => ({ path, glob: typeof value === 'string' ? suggestedGlob(value) : String(value), use: path === main }));
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
      <p class="small" role="status" aria-live="polite" data-testid="calls-like-this-summary">
        {ruleMatchText(props.toolName, rows().filter((r) => r.use), rows().filter((r) => !r.use).map((r) => r.path))}
      </p>
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
