// Where a skill's own Python environment lives (created by `skills deps NAME --add PKG`): under
// TOOLDESK_HOME, read-only to every sandboxed process. Later runs of its scripts use it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** A folder name for a skill id (`claude:pdf` → `claude_pdf`). */
export const skillEnvName = (id: string): string => id.replace(/[^A-Za-z0-9._-]/g, '_');

export const skillEnvDir = (home: string, id: string): string => join(home, 'skill-envs', skillEnvName(id));

export function skillEnvPython(home: string, id: string): string | undefined {
  const python = process.platform === 'win32' ? join(skillEnvDir(home, id), 'Scripts', 'python.exe') : join(skillEnvDir(home, id), 'bin', 'python');
  return existsSync(python) ? python : undefined;
}
