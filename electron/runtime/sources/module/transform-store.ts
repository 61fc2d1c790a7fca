// Stores a module the tool host transpiled into the cache folder it reads (it cannot write there
// itself). The key names the file, so only a 40-hex-digit key is accepted.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function storeTransformed(dir: string, key: unknown, code: string): void {
  if (typeof key !== 'string' || !/^[0-9a-f]{40}$/.test(key)) return;
  try {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${key}.cjs`);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, file);
  } catch {
    // a cache that cannot be written only costs speed
  }
}
