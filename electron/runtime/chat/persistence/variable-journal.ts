// Writes a session's variable changes to its file as they happen: a changed variable whole, a
// removal by name, a restore or clear as a snapshot. Unchanged re-adds (a group's rules when it
// registers again) are not written twice.
import type { Limits } from '../../../../shared/settings.ts';
import type { Variable, VariableChange } from '../../../../shared/variables.ts';
import type { Disposer } from '../../base/emitter.ts';
import { VariableSystem } from '../../tools/variables/variable-system.ts';
import type { SessionRecord } from './session-records.ts';

/**
 * A session's variables, bounded by the settings' limits and restored from its file. Once
 * `journal()` is called every change is written as it happens (changes before it, such as the
 * rules of the groups registered at start, are not: they are not the session's); `written` hears
 * each change that reached the file. journal() returns the disposer that stops it.
 */
export function sessionVariables(saved: readonly Variable[], limits: Pick<Limits, 'variableMaxEntries' | 'variableMaxBytes'>): { variables: VariableSystem; journal(append: (record: SessionRecord) => void, written: () => void): Disposer } {
  const variables = new VariableSystem({ maxEntries: limits.variableMaxEntries, maxBytes: limits.variableMaxBytes });
  if (saved.length > 0) variables.restore({ version: 1, variables: [...saved] });
  // Its first snapshot is taken now, as the session file holds them.
  const pending = new VariableJournal(variables, () => {});
  return {
    variables,
    journal(append, written) {
      pending.redirect(append);
      return variables.onChange((change) => {
        if (pending.record(change)) written();
      });
    },
  };
}

export class VariableJournal {
  /** Last written value of each variable (the same string objects the system holds). */
  readonly #written = new Map<string, string>();

  constructor(
    private readonly variables: VariableSystem,
    private append: (record: SessionRecord) => void,
  ) {
    for (const v of variables.serialize().variables) this.#written.set(v.name, v.value);
  }

  /** Where records go from now on. */
  redirect(append: (record: SessionRecord) => void): void {
    this.append = append;
  }

  /** Returns whether anything was written. */
  record(change: VariableChange): boolean {
    const at = Date.now();
    if (change.kind === 'add' || change.kind === 'update') {
      const variable = change.name ? this.variables.peek(change.name) : undefined;
      if (!variable || this.#written.get(variable.name) === variable.value) return false;
      this.#written.set(variable.name, variable.value);
      this.append({ t: 'var', at, variable });
      return true;
    }
    if (change.kind === 'remove' || change.kind === 'evict') {
      if (!change.name) return false;
      this.#written.delete(change.name);
      this.append({ t: 'var-remove', at, name: change.name });
      return true;
    }
    const data = this.variables.serialize();
    this.#written.clear();
    for (const v of data.variables) this.#written.set(v.name, v.value);
    this.append({ t: 'vars', at, data });
    return true;
  }
}
