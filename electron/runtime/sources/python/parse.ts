// Parses stale Python modules with resources/python/parse_modules.py: ALL of them in ONE
// interpreter process (paths on stdin, JSON out). The user's scripts are never imported.
import type { Diagnostic } from '../../../../shared/tools.ts';
import { helperScript } from '../process/helper-scripts.ts';
import type { CachedDiagnostic } from '../cached-modules/cache.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import type { SourceContext } from '../types.ts';

/** Bump when parse_modules.py's output changes: every cache is then re-parsed. */
export const PYTHON_PARSER_VERSION = 'py-3';

export interface ParsedPythonTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
  line: number;
  declaredReturnType?: { type: string; note?: string };
  attributes: Record<string, unknown>;
  hasFormat: boolean;
  async?: boolean;
}

export type ParsedPythonModule =
  | { ok: true; path: string; rulePrompt: string; tools: ParsedPythonTool[]; defaultPermissions: Record<string, unknown> | null; secrets: string[]; diagnostics: CachedDiagnostic[] }
  | { ok: false; path: string; error: CachedDiagnostic };

export type PythonParseOutcome = { ok: true; modules: Map<string, ParsedPythonModule> } | { ok: false; diagnostic: Diagnostic };

/** Parses `paths` in one process. Contract: never throws. */
export async function parsePythonModules(paths: string[], ctx: SourceContext): Promise<PythonParseOutcome> {
  const parser = helperScript.pythonParser();
  const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
  const run = await ctx.runner({
    command: python,
    // -I -S: isolated and without site-packages; the parser needs only the standard library.
    args: ['-I', '-S', parser],
    cwd: ctx.home,
    stdin: JSON.stringify(paths),
    timeoutMs: Math.max(30_000, paths.length * 500),
    maxOutputBytes: 256 * 1024 * 1024,
  });
  const failure = (message: string, hint: string): PythonParseOutcome => ({ ok: false, diagnostic: { severity: 'error', file: paths[0] ?? parser, message, hint, code: 'python-parser-failed' } });
  if (run.spawnError) return failure(`Cannot start Python to parse ${paths.length} module(s): ${run.spawnError}`, 'Install Python 3, or set its path in Settings → Python interpreter.');
  if (run.timedOut) return failure('The Python parser timed out', 'Try again; if it repeats, report it with the module that hangs.');
  let output: { modules?: ParsedPythonModule[] };
  try {
    output = JSON.parse(run.stdout) as { modules?: ParsedPythonModule[] };
  } catch {
    return failure(`The Python parser failed (exit ${run.exitCode}): ${run.stderr.trim().split('\n').slice(-3).join(' ') || 'no output'}`, 'Check that the configured interpreter is Python 3.9 or newer.');
  }
  const modules = new Map<string, ParsedPythonModule>();
  for (const module of output.modules ?? []) modules.set(module.path, module);
  return { ok: true, modules };
}
