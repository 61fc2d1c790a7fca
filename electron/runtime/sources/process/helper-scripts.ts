// Locates what ships in resources/ (the python/ and powershell/ helper scripts, templates/): from
// the source tree (tsx, tests, CLI), from the built app, or from TOOLDESK_RESOURCES.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findResourcesDir(): string {
  const override = process.env.TOOLDESK_RESOURCES;
  if (override) return override;
  // Electron sets process.resourcesPath; the packaged app ships resources/ inside it.
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged && existsSync(join(packaged, 'resources', 'python'))) return join(packaged, 'resources');
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'resources');
    if (existsSync(join(candidate, 'python', 'parse_modules.py'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'resources');
    dir = parent;
  }
}

let cached: string | undefined;
export function resourcesDir(): string {
  cached ??= findResourcesDir();
  return cached;
}

/** The folders of our helper scripts: a sandboxed run must be able to read them. */
export const helperDirs = (): string[] => [join(resourcesDir(), 'python'), join(resourcesDir(), 'powershell')];

export const helperScript = {
  pythonParser: () => join(resourcesDir(), 'python', 'parse_modules.py'),
  pythonRunner: () => join(resourcesDir(), 'python', 'run_tool.py'),
  openWebUiParser: () => join(resourcesDir(), 'python', 'parse_openwebui.py'),
  openWebUiRunner: () => join(resourcesDir(), 'python', 'run_openwebui.py'),
  pythonZygote: () => join(resourcesDir(), 'python', 'zygote.py'),
  pythonPreload: () => join(resourcesDir(), 'python', 'preload.py'),
  powershellParser: () => join(resourcesDir(), 'powershell', 'parse.ps1'),
  powershellRunner: () => join(resourcesDir(), 'powershell', 'run_tool.ps1'),
};
