// Rows edited in a Settings section (rules, tool sets) before they are saved: the saved list is
// shown until the user changes something, after which edits stay until saved (or the panel closes).
import { createEffect, createSignal } from 'solid-js';

export function useDraftRows<T, Row>(saved: () => readonly T[], toRow: (item: T) => Row) {
  const [rows, setRows] = createSignal<Row[]>([]);
  const [dirty, setDirty] = createSignal(false);
  const [problem, setProblem] = createSignal('');
  createEffect(() => {
    const items = saved();
    if (!dirty()) setRows(items.map(toRow));
  });
  const change = (next: Row[]) => {
    setRows(next);
    setDirty(true);
    setProblem('');
  };
  return {
    rows,
    dirty,
    problem,
    setProblem,
    change,
    update: (i: number, patch: Partial<Row>) => change(rows().map((r, j) => (j === i ? { ...r, ...patch } : r))),
    /** The rows were saved: the next saved list shows again. */
    markSaved: () => setDirty(false),
  };
}
