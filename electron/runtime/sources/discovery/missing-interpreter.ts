// Tools whose interpreter is not installed are listed (the user sees what they have) but flagged
// before anyone runs them: `tools check` and the Tools panel say what to install.
import { existsSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { findPowerShell } from '../powershell/find-powershell.ts';
import { defaultPythonCommand } from '../process/resolve-python-command.ts';
import type { SourceContext, SourceEntry } from '../types.ts';

/** Whether `command` names an existing file (absolute or relative path) or a program on PATH. */
export function commandExists(command: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (isAbsolute(command) || command.includes('/') || command.includes('\\')) return existsSync(command);
  const suffixes = platform === 'win32' ? ['', '.exe', '.cmd', '.bat'] : [''];
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  return dirs.some((dir) => suffixes.some((suffix) => existsSync(join(dir, command + suffix))));
}

/** The interpreter an entry's tools run with, and the file a diagnostic about it names. */
function needs(entry: SourceEntry, ctx: Pick<SourceContext, 'pythonPath'>): { interpreter: 'python' | 'pwsh'; file: string } | null {
  switch (entry.format) {
    case 'powershell':
      return { interpreter: 'pwsh', file: entry.path };
    case 'python':
      return { interpreter: 'python', file: entry.path };
    case 'three-layer':
      return { interpreter: 'python', file: join(entry.path, 'execution.py') };
    case 'script':
      // script.js wins over script.py and runs on Tooldesk's own Node.
      return existsSync(join(entry.path, 'script.js')) || !existsSync(join(entry.path, 'script.py')) ? null : { interpreter: 'python', file: join(entry.path, 'script.py') };
    default:
      return null;
  }
}

/**
 * One warning per entry whose interpreter is missing. `probe` answers whether an interpreter
 * exists (tests inject it); each interpreter is looked up once per call.
 */
export function missingInterpreterDiagnostics(
  entries: SourceEntry[],
  ctx: Pick<SourceContext, 'pythonPath'>,
  probe: { python: () => boolean; pwsh: () => boolean } = {
    python: () => commandExists(ctx.pythonPath ?? defaultPythonCommand()),
    pwsh: () => findPowerShell() !== null,
  },
): Diagnostic[] {
  const known = new Map<'python' | 'pwsh', boolean>();
  const present = (which: 'python' | 'pwsh') => {
    if (!known.has(which)) known.set(which, probe[which]());
    return known.get(which)!;
  };
  const diagnostics: Diagnostic[] = [];
  for (const entry of entries) {
    const need = needs(entry, ctx);
    if (!need || present(need.interpreter)) continue;
    diagnostics.push(
      need.interpreter === 'pwsh'
        ? {
            severity: 'warning',
            file: need.file,
            message: 'PowerShell (pwsh) is not installed: these tools are listed but cannot run',
            hint: 'Install PowerShell 7 so that `pwsh` is on PATH, then reload the tools.',
            code: 'interpreter-missing',
          }
        : {
            severity: 'warning',
            file: need.file,
            message: `Python (${ctx.pythonPath ?? defaultPythonCommand()}) is not found: this tool is listed but cannot run`,
            hint: 'Install Python 3, or set the Python interpreter in Settings (pythonPath) to one that exists, then reload the tools.',
            code: 'interpreter-missing',
          },
    );
  }
  return diagnostics;
}
