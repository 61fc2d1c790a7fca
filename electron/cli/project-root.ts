// The project's folder: the nearest folder above this module holding a package.json. The same
// answer from the sources (electron/cli/…) and from the bundle (out/cli/…), whose depths differ.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return join(here, '..', '..');
  }
}

export const projectRoot: string = findProjectRoot();
