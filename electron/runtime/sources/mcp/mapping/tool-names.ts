// Callable names for a server's tools: `SERVER__tool`, valid for every provider
// (^[a-zA-Z0-9_-]{1,64}$). A name that had to be changed (too long, other characters) or that is
// already taken gets a short hash of the original pair, so it stays the same across restarts.
import { isValidModelName, stableHash } from '../../../tools/model-name.ts';

const MAX = 64;
const clean = (text: string) => text.normalize('NFKD').replace(/[^a-zA-Z0-9_-]+/g, '_');

/** How every callable name of `server`'s tools begins (a name made too long is cut, prefix and all). */
export function callablePrefix(server: string): string {
  return `${clean(server)}__`;
}

/** `taken` holds names already given (this server's earlier tools, other groups' tools). */
export function callableName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const plain = `${callablePrefix(server)}${clean(tool)}`;
  if (plain === `${server}__${tool}` && isValidModelName(plain) && !taken.has(plain)) return plain;
  for (let attempt = 0; ; attempt++) {
    const suffix = `_${stableHash(`${server}\u0000${tool}${attempt ? `#${attempt}` : ''}`).slice(0, 6)}`;
    const name = `${plain.slice(0, MAX - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
}
