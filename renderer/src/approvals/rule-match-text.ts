// What an allow rule made from a card will match, in words: "Allows script_read_lines whenever
// path is inside /home/me/notes (any depth); lines can be anything." Values are quoted, folders
// and addresses are not. Read from the globs the card shows, so
// an edited pattern is described as it now stands.

/** One test of the rule: the argument and its glob. */
export interface GlobTest {
  path: string;
  glob: string;
}

function describeGlob(glob: string): string {
  if (glob.endsWith('/**') && !/[*?[]/.test(glob.slice(0, -3))) return `is inside ${glob.slice(0, -3)} (any depth)`;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/*?[]+\/\*$/i.test(glob)) return `is an address on ${glob.slice(0, -2)}`;
  if (glob.endsWith('*') && !/[*?[]/.test(glob.slice(0, -1))) return `starts with “${glob.slice(0, -1)}”`;
  if (!/[*?[]/.test(glob)) return `is exactly “${glob}”`;
  return `matches the pattern “${glob}”`;
}

const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

export function ruleMatchText(tool: string, tests: GlobTest[], free: string[]): string {
  if (tests.length === 0) return `Allows every call of ${tool}, whatever its arguments.`;
  const conditions = tests.map((t) => `${t.path} ${describeGlob(t.glob)}`);
  const rest = free.length ? `; ${list(free)} can be anything` : '';
  return `Allows ${tool} whenever ${list(conditions)}${rest}.`;
}
