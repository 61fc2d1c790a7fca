// An argument value as the approval card shows it: always in full (issue 14: never hidden or
// folded; a long value scrolls inside its box), strings as they are, the rest as pretty JSON.

export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
}

/** "1 234 characters" style size, for chips. */
export function charCount(n: number): string {
  return `${n.toLocaleString('en-US').replace(/,/g, ' ')} character${n === 1 ? '' : 's'}`;
}
