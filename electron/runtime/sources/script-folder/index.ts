// Agenvoy script tools (seed 001): `<folder>/tool.json` + `script.js` or `script.py`, registered
// as `script_<name>`. Contract kept exactly: args JSON on stdin, result on stdout (JSON or text),
// stderr + non-zero exit = error.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { timedOutText } from '../../tools/result/timeout-message.ts';
import type { Tool } from '../../tools/types.ts';
import { pythonPreloadSet } from '../../runner/warm-python/preload-set.ts';
import { mapLimit } from '../process/map-limit.ts';
import { nodeCommand } from '../process/sandbox-spec-for.ts';
import { PYTHON_SCRIPT_FLAGS } from '../process/python-flags.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import { runToolProcess, type ProcessReading } from '../process/run-tool-process.ts';
import { readScriptManifest, SCRIPT_MAX_TIMEOUT_S, type ScriptManifest } from './manifest.ts';
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
  const { manifest, diagnostics } = await readScriptManifest(entry.path, ctx.toolSourceMaxBytes);
  if (!manifest) return { tool: null, diagnostics };
  if (script.language === 'javascript' && existsSync(join(entry.path, 'script.py'))) {
    diagnostics.push({ severity: 'info', file: join(entry.path, 'script.py'), message: 'script.js and script.py both exist; script.js runs', hint: 'Delete the one you no longer use.', code: 'script-shadowed' });
  }
  return { tool: createScriptTool(manifest, script.file, script.language, entry, ctx), diagnostics };
}

export function createScriptTool(manifest: ScriptManifest, file: string, language: 'javascript' | 'python', entry: SourceEntry, ctx: SourceContext): Tool {
  const name = `${SCRIPT_PREFIX}${manifest.name}`;
  const timeoutMs = manifest.timeoutS * 1000;
  const manifestFile = join(entry.path, 'tool.json');
  const timeoutMessage = (ms: number) => `script error: ${timedOutText(ms, `${manifestFile} ("timeout": seconds, at most ${SCRIPT_MAX_TIMEOUT_S})`)}`;
  return {
    definition: { type: 'function', function: { name, description: manifest.description, parameters: manifest.parameters } },
    // Seed 001: without always_allow the user confirms every call.
    permission: { executionPolicy: manifest.alwaysAllow ? 'auto' : 'ask-always' },
    source: { format: 'script', file: manifestFile, root: entry.root },
    relativeTo: [ctx.workingDir],
    timeoutMs,
    timeoutMessage,
    ...(manifest.secrets.length > 0 ? { secrets: manifest.secrets } : {}),
    meta: { language, script: file, folder: entry.path, network: manifest.network },
    async execute(args, call) {
      const node = nodeCommand();
      const command = language === 'javascript' ? node.command : await resolvePythonCommand(ctx.pythonPath, ctx.runner);
      return runToolProcess(ctx, call, {
        spec: {
          command,
          args: language === 'python' ? [...PYTHON_SCRIPT_FLAGS, file] : [file],
          cwd: ctx.workingDir,
          stdin: JSON.stringify(args ?? {}),
          env: language === 'javascript' ? { ...ctx.env, ...node.env } : ctx.env,
          ...(language === 'python' ? { python: { kind: 'script', file, preload: pythonPreloadSet([file]) } as const } : {}),
        },
        toolName: name,
        toolDir: entry.path,
        network: manifest.network,
        secrets: manifest.secrets,
        timeoutMs,
        ...scriptReading(timeoutMessage),
      });
    },
  };
}

/** Reads one script run as seed 001's runtime reports it: stderr is logs, stdout the result. */
export function scriptReading(timedOut: (timeoutMs: number) => string): ProcessReading {
  return {
    logs: (run) => run.stderr.trim(),
    notStarted: (why) => `script error: ${why}`,
    aborted: 'script error: aborted',
    timedOut,
    read: (run, base) => {
      if (run.exitCode !== 0) return { status: 'ERROR', error: `script error: ${base.logs || `exit code ${run.exitCode ?? run.signal}`}`, ...base };
      const stdout = run.stdout.trim();
      if (!stdout) return { status: 'SUCCESS', data: '', ...base, warnings: [...(base.warnings ?? []), 'the script exited 0 but printed nothing on stdout'] };
      return { status: 'SUCCESS', data: parseJsonOrText(stdout), ...base };
    },
  };
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
