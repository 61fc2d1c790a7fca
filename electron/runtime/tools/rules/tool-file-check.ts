// "Always allow" written in a tool's own file (Agenvoy's `always_allow`, a module's policy) holds
// for the file as it was: when its content changes, the tool asks again until the user approves
// it. Hashes live in TOOLDESK_HOME/approved-tool-files.json; the file is read again only when its
// size or mtime changed.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ToolFileCheck {
  /** Why the file's own policy does not hold now, or undefined. The first sight of a file records it. */
  changed(toolName: string, file: string): string | undefined;
  /** The user approved the tool as its file is now. */
  approve(toolName: string, file: string): void;
}

export function toolFileCheck(home: string, log: (message: string) => void = () => {}): ToolFileCheck {
  const store = join(home, 'approved-tool-files.json');
  let hashes: Record<string, string> | undefined;
  const seen = new Map<string, { key: string; hash: string }>();
  const load = (): Record<string, string> => {
    if (hashes) return hashes;
    try {
      const parsed = JSON.parse(readFileSync(store, 'utf8')) as unknown;
      hashes = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch {
      hashes = {};
    }
    return hashes;
  };
  const save = () => {
    try {
      mkdirSync(dirname(store), { recursive: true });
      writeFileSync(store, `${JSON.stringify(hashes, null, 2)}\n`, { mode: 0o600 });
    } catch (error) {
      log(`Recording approved tool files in ${store} failed: ${(error as Error).message}`);
    }
  };
  const hashOf = (file: string): string | undefined => {
    try {
      const stat = statSync(file);
      const key = `${stat.size}:${stat.mtimeMs}`;
      const known = seen.get(file);
      if (known?.key === key) return known.hash;
      const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
      seen.set(file, { key, hash });
      return hash;
    } catch {
      return undefined;
    }
  };
  return {
    changed(toolName, file) {
      const now = hashOf(file);
      if (!now) return undefined;
      const all = load();
      const id = `${toolName}\u0000${file}`;
      if (all[id] === undefined) {
        all[id] = now;
        save();
        return undefined;
      }
      return all[id] === now ? undefined : `${file} changed since ${toolName} was allowed to run without asking`;
    },
    approve(toolName, file) {
      const now = hashOf(file);
      if (!now) return;
      load()[`${toolName}\u0000${file}`] = now;
      save();
    },
  };
}
