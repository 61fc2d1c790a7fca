// What each Python tool folder's warm fork-server preloads, for `tools check`: the same files,
// forbidden folders and bound a call's fork-server gets (runner/warm-python/preload-set.ts),
// checked by resources/python/preload.py in one sandboxed process that imports nothing into
// itself (each module is tried once, in a child). Contract: never throws; a report that could
// not be made is one note.
import { dirname, join } from 'node:path';
import type { Settings } from '../../../../shared/settings.ts';
import type { RunSpec } from '../../runner/types.ts';
import { folderPreloadSet, preloadRequest, pythonPreloadSet, type PreloadOutcome } from '../../runner/warm-python/preload-set.ts';
import type { Tool } from '../../tools/types.ts';
import type { SourceContext } from '../types.ts';
import { helperScript } from './helper-scripts.ts';
import { resolvePythonCommand } from './resolve-python-command.ts';
import { sandboxSpecFor } from './sandbox-spec-for.ts';

/** One fork-server: the folder its calls come from, and what it would import before forking. */
export interface PythonPreloadReport extends PreloadOutcome {
  folder: string;
}

/** How a Python tool's calls reach their fork-server: its folder, files to read and working folder. */
function runnerOf(tool: Tool, ctx: SourceContext): { folder: string; files: string[]; cwd: string } | undefined {
  const file = tool.source?.file;
  const folder = typeof tool.meta?.folder === 'string' ? tool.meta.folder : undefined;
  switch (tool.source?.format) {
    case 'python':
    case 'open-webui':
      return file ? { folder: dirname(file), files: folderPreloadSet(dirname(file), ctx), cwd: dirname(file) } : undefined;
    case 'script':
      return folder && tool.meta?.language === 'python' && typeof tool.meta.script === 'string' ? { folder, files: pythonPreloadSet([tool.meta.script]), cwd: ctx.workingDir } : undefined;
    case 'three-layer':
      return folder ? { folder, files: pythonPreloadSet([join(folder, 'execution.py')]), cwd: ctx.workingDir } : undefined;
    default:
      return undefined;
  }
}

/** The preload report of every Python tool folder among `tools`, one per folder (empty: no Python tools, or preloads off). */
export async function pythonPreloads(tools: readonly Tool[], ctx: SourceContext, runner: Settings['runner'] | undefined): Promise<{ reports: PythonPreloadReport[]; note?: string }> {
  const options = { enabled: runner?.warmPython !== false && runner?.preloadImports !== false, maxMs: runner?.preloadMaxMs ?? 2000 };
  const requests = new Map<string, { folder: string; files: string[]; forbid: string[]; maxMs: number }>();
  for (const tool of tools) {
    const at = runnerOf(tool, ctx);
    if (!at || requests.has(at.folder)) continue;
    const spec: RunSpec = { command: 'python', args: [], cwd: at.cwd, timeoutMs: 0, sandbox: sandboxSpecFor(ctx, tool.definition.function.name, at.folder), python: { kind: 'script', file: '', preload: at.files } };
    const request = preloadRequest(spec, options);
    if (request) requests.set(at.folder, { folder: at.folder, ...request });
  }
  if (requests.size === 0) return { reports: [] };
  const first = [...requests.values()][0]!;
  const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
  // One sandbox for the check: every folder it reads stays visible in it (read-only).
  const box = sandboxSpecFor(ctx, '', first.folder);
  const run = await ctx.runner({
    command: python,
    args: [helperScript.pythonPreload()],
    cwd: first.folder,
    stdin: JSON.stringify([...requests.values()]),
    env: { ...ctx.env, PYTHONDONTWRITEBYTECODE: '1' },
    // Every module is bounded on its own; the whole check by its budget per folder (preload.py).
    timeoutMs: 10_000 + 2 * first.maxMs + 3000,
    sandbox: { ...box, readOnlyPaths: [...(box.readOnlyPaths ?? []), ...requests.keys()] },
  });
  try {
    const reports = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as PythonPreloadReport[];
    if (Array.isArray(reports)) return { reports };
  } catch {
    // said below
  }
  const said = run.spawnError ?? (run.stderr.trim().split('\n').at(-1) || `exit code ${run.exitCode ?? run.signal}`);
  return { reports: [], note: `the warm preload check could not run (${python}): ${said}` };
}
