// Agenvoy script tools (seed 001): `<folder>/tool.json` + `script.js` or `script.py`, registered
// as `script_<name>`. Contract kept exactly: args JSON on stdin, result on stdout (JSON or text),
// stderr + non-zero exit = error.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { RunResult } from '../../runner/types.ts';
import { runWarnings } from '../../runner/run-warnings.ts';
import type { Tool, ToolRunResult } from '../../tools/types.ts';
import { mapLimit } from '../process/map-limit.ts';
import { nodeCommand, sandboxSpecFor } from '../process/sandbox-spec-for.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import { readScriptManifest, type ScriptManifest } from './manifest.ts';
import type { LoadResult, SourceContext, SourceEntry, SourceLoader } from '../types.ts';

export const SCRIPT_GROUP = 'script';
export const SCRIPT_PREFIX = 'script_';

/** `script.js` wins over `script.py` (seed 001's loader checks it first). */
export function scriptFileOf(folder: string): { file: string; language: 'javascript' | 'python' } | null {
  const js = join(folder, 'script.js');
  if (existsSync(js)) return { file: js, language: 'javascript' };
  const py = join(folder, 'script.py');
  if (existsSync(py)) return { file: py, language: 'python' };
  return null;
}

/** A folder with tool.json but nothing to run (said at load and by the authoring read-back). */
export function noScriptDiagnostic(folder: string): Diagnostic {
  return { severity: 'error', file: folder, message: 'Script tool folder has no script.js or script.py', hint: 'Add script.py (python3) or script.js (node) next to tool.json.', code: 'no-script' };
}

export const loadScriptFolders: SourceLoader = async (entries, ctx) => {
  const result: LoadResult = { groups: [], diagnostics: [] };
  const tools: Tool[] = [];
  for (const loaded of await mapLimit(entries, 16, (entry) => loadScriptFolder(entry, ctx))) {
    result.diagnostics.push(...loaded.diagnostics);
    if (loaded.tool) tools.push(loaded.tool);
  }
  if (tools.length > 0) result.groups.push({ name: SCRIPT_GROUP, tools });
  return result;
};

export async function loadScriptFolder(entry: SourceEntry, ctx: SourceContext): Promise<{ tool: Tool | null; diagnostics: Diagnostic[] }> {
  const script = scriptFileOf(entry.path);
  if (!script) return { tool: null, diagnostics: [noScriptDiagnostic(entry.path)] };
  const { manifest, diagnostics } = await readScriptManifest(entry.path);
  if (!manifest) return { tool: null, diagnostics };
  if (script.language === 'javascript' && existsSync(join(entry.path, 'script.py'))) {
    diagnostics.push({ severity: 'info', file: join(entry.path, 'script.py'), message: 'script.js and script.py both exist; script.js runs', hint: 'Delete the one you no longer use.', code: 'script-shadowed' });
  }
  return { tool: createScriptTool(manifest, script.file, script.language, entry, ctx), diagnostics };
}

export function createScriptTool(manifest: ScriptManifest, file: string, language: 'javascript' | 'python', entry: SourceEntry, ctx: SourceContext): Tool {
  const name = `${SCRIPT_PREFIX}${manifest.name}`;
  const timeoutMs = manifest.timeoutS * 1000;
  return {
    definition: { type: 'function', function: { name, description: manifest.description, parameters: manifest.parameters } },
    // Seed 001: without always_allow the user confirms every call.
    permission: { executionPolicy: manifest.alwaysAllow ? 'auto' : 'ask-always' },
    source: { format: 'script', file: join(entry.path, 'tool.json'), root: entry.root },
    timeoutMs,
    ...(manifest.secrets.length > 0 ? { secrets: manifest.secrets } : {}),
    meta: { language, script: file, folder: entry.path, network: manifest.network },
    async execute(args, toolCtx) {
      const node = nodeCommand();
      const command = language === 'javascript' ? node.command : await resolvePythonCommand(ctx.pythonPath, ctx.runner);
      const run = await ctx.runner({
        command,
        args: [file],
        cwd: ctx.workingDir,
        stdin: JSON.stringify(args ?? {}),
        env: language === 'javascript' ? { ...ctx.env, ...node.env } : ctx.env,
        timeoutMs,
        signal: toolCtx.signal,
        maxOutputBytes: ctx.outputCapBytes,
        ...(manifest.secrets.length > 0 ? { secrets: manifest.secrets } : {}),
        sandbox: sandboxSpecFor(ctx, name, entry.path, manifest.network),
        ...(language === 'python' ? { python: { kind: 'script', file } as const } : {}),
      });
      return scriptRunResult(run, manifest.timeoutS);
    },
  };
}

/** Maps one finished script run onto a tool result, as seed 001's runtime reports it. */
export function scriptRunResult(run: RunResult, timeoutS: number): ToolRunResult {
  const logs = run.stderr.trim();
  const warnings = runWarnings(run);
  if (run.stdoutTruncated) warnings.push('stdout exceeded the output cap and was cut');
  const base = { ...(logs ? { logs } : {}), ...(warnings.length ? { warnings } : {}) };
  if (run.spawnError) return { status: 'ERROR', error: `script error: ${run.spawnError}`, ...base };
  if (run.timedOut) return { status: 'ERROR', error: `script error: timed out after ${timeoutS} s and was stopped`, ...base };
  if (run.aborted) return { status: 'ERROR', error: 'script error: aborted', ...base };
  if (run.exitCode !== 0) {
    const why = logs || `exit code ${run.exitCode ?? run.signal}`;
    return { status: 'ERROR', error: `script error: ${why}`, ...base };
  }
  const stdout = run.stdout.trim();
  if (!stdout) return { status: 'SUCCESS', data: '', ...base, warnings: [...warnings, 'the script exited 0 but printed nothing on stdout'] };
  return { status: 'SUCCESS', data: parseJsonOrText(stdout), ...base };
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
