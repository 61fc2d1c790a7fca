// "Did you mean …" for a mistyped command or sub-command: the closest known name, when it is
// close enough to be what the user meant (edit distance at most a third of its length, min 1).

/** Levenshtein distance, with a swap of two neighbours counted as one edit ("tolos" → "tools"). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name closest to `typed`, or undefined when none is close; a prefix counts too. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const t = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = name.startsWith(t) && t.length >= 2 ? 0.5 : editDistance(t, name.toLowerCase());
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** ` Did you mean "X"?` or an empty string. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const name = closestName(typed, known);
  return name ? ` Did you mean "${name}"?` : '';
}
