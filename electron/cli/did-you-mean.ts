// "Did you mean …" for a mistyped command or sub-command, with the runtime's own matcher
// (tools/close-names.ts: substring, then edit distance).
import { closeNames } from '../runtime/tools/close-names.ts';

/** The known name closest to `typed`, or undefined when none is close. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  return closeNames(typed, known, 1)[0];
}

/** ` Did you mean "X"?` or an empty string. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const name = closestName(typed, known);
  return name ? ` Did you mean "${name}"?` : '';
}
