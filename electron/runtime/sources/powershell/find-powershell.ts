// Finds `pwsh` (else Windows PowerShell on Windows) by scanning PATH: no process is started.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findPowerShell(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  const names = platform === 'win32' ? ['pwsh.exe', 'powershell.exe'] : ['pwsh'];
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

/** Flags every PowerShell run uses: no profile, no prompts, scripts allowed. */
export const POWERSHELL_FLAGS = ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass'];
