// Shared formatting for benchmark lines, and a full garbage collection between measurements.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/**
 * A full collection, so a timed window starts with a settled heap rather than inside a marking
 * cycle the setup started (as benchmark harnesses do). Collections the timed work causes still count.
 */
export const gc = runInNewContext('gc') as () => void;

export function report(figure: number, unit: string, what: string): void {
  const shown = Math.abs(figure) >= 100 ? figure.toFixed(0) : figure.toFixed(2);
  console.log(`${`${shown} ${unit}`.padStart(16)}  ${what}`);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
