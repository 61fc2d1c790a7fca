// Reads Open WebUI Tools files with resources/python/parse_openwebui.py: ALL candidates in ONE
// interpreter process (paths on stdin, JSON out). The user's files are never imported.
import { helperScript } from '../process/helper-scripts.ts';
import type { CachedDiagnostic } from '../cached-modules/cache.ts';
import type { ParsedPythonTool } from '../python/parse.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import type { SourceContext } from '../types.ts';

/** One field of `class Valves` / `class UserValves`, read from the AST. */
export interface ValveSpec {
  name: string;
  schema: Record<string, unknown>;
  /** The default written in the file (null when it is not a literal). */
  default: unknown;
  description?: string;
  /** Named or described like a credential: its value lives in the keychain. */
  secret?: boolean;
  line: number;
}

export interface OpenWebUiTool extends Omit<ParsedPythonTool, 'attributes' | 'hasFormat'> {
  /** The method's `__x__` arguments, filled by the app, never in the schema. */
  injected: string[];
  unknownInjected: string[];
}

export interface OpenWebUiModule {
  ok: true;
  kind: 'open-webui';
  path: string;
  frontmatter: Record<string, string>;
  description: string;
  tools: OpenWebUiTool[];
  valves: ValveSpec[] | null;
  userValves: ValveSpec[] | null;
  openWebUiImports: { name: string; line: number }[];
  /** Top-level modules imported outright (not the standard library, not in a try): each must be installed. */
  imports?: { name: string; line: number }[];
  needsRequest: { method: string; line: number }[];
  requirements: string[];
  usesPydantic: boolean;
  line: number;
  diagnostics: CachedDiagnostic[];
}

export type OpenWebUiParse =
  | OpenWebUiModule
  /** Not an Open WebUI file (or one parse_modules.py will explain): the Python module loader takes it. */
  | { ok: true; kind: 'python'; path: string }
  | { ok: false; path: string; error: CachedDiagnostic };

/** Parses `paths` in one process. Contract: never throws; a failed run reads every file as Python. */
export async function parseOpenWebUiFiles(paths: string[], ctx: SourceContext): Promise<Map<string, OpenWebUiParse>> {
  const parsed = new Map<string, OpenWebUiParse>();
  if (paths.length === 0) return parsed;
  const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
  const run = await ctx.runner({
    command: python,
    // -I -S: isolated and without site-packages; the parser needs only the standard library.
    args: ['-I', '-S', helperScript.openWebUiParser()],
    cwd: ctx.home,
    stdin: JSON.stringify(paths),
    timeoutMs: Math.max(30_000, paths.length * 500),
    maxOutputBytes: 64 * 1024 * 1024,
  });
  try {
    const output = JSON.parse(run.stdout) as { modules?: OpenWebUiParse[] };
    for (const module of output.modules ?? []) parsed.set(module.path, module);
  } catch {
    // No Python, or it failed: the Python loader reports the interpreter problem for these files.
  }
  return parsed;
}
