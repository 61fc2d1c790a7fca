// Browser mode serves out/renderer. It is rebuilt (electron-vite build) when missing or older
// than any source it is built from, so `tooldesk serve` never shows a stale UI.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRoot } from '../project-root.ts';

export { projectRoot };
export const rendererOutDir = (root = projectRoot) => join(root, 'out', 'renderer');

/** Newest mtime (ms) of the files under `paths` (folders walked; node_modules skipped). */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    let st;
    try {
      st = statSync(path);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules' && !name.startsWith('.')) visit(join(path, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

export type BuildState = { fresh: true } | { fresh: false; reason: string };

export function rendererBuildState(root = projectRoot): BuildState {
  const index = join(rendererOutDir(root), 'index.html');
  if (!existsSync(index)) return { fresh: false, reason: 'out/renderer has not been built yet' };
  const built = statSync(index).mtimeMs;
  const sources = newestMtime([join(root, 'renderer'), join(root, 'shared'), join(root, 'electron.vite.config.ts')]);
  return sources > built ? { fresh: false, reason: 'the renderer sources changed since the last build' } : { fresh: true };
}

/** Runs `electron-vite build`; resolves with its exit code, output going to `log`. */
export function buildRenderer(log: NodeJS.WritableStream, root = projectRoot, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // `exports` hides the bin script but lists package.json; the bin sits beside it.
  const bin = join(dirname(createRequire(import.meta.url).resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'build'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => log.write(chunk));
    child.stderr.on('data', (chunk) => log.write(chunk));
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}
