// Which `requirements` of Open WebUI files the configured interpreter lacks, and whether it has
// pydantic: one process for all files (with site-packages, unlike the parser). Never installs.
import type { Diagnostic } from '../../../../shared/tools.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import type { SourceContext } from '../types.ts';

// Reads distribution names on stdin; prints which are installed, and where pydantic would come from.
const PROBE = [
  'import importlib.metadata as m, importlib.util as u, json, sys',
  'def has(name):',
  '    try:',
  '        m.distribution(name)',
  '        return True',
  '    except Exception:',
  '        return False',
  'names = json.load(sys.stdin)',
  "print(json.dumps({'installed': {n: has(n) for n in names}, 'pydantic': u.find_spec('pydantic') is not None}))",
].join('\n');

/** The distribution name of a requirement line (`pkg[extra]>=1.0; marker` → `pkg`), or null. */
export function requirementName(requirement: string): string | null {
  const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement);
  return match ? match[1]! : null;
}

export interface RequirementsProbe {
  python: string;
  installed: Map<string, boolean>;
  pydantic: boolean;
}

/** Contract: never throws; null when the interpreter could not answer (its own diagnostic says why). */
export async function probeRequirements(names: string[], ctx: SourceContext): Promise<RequirementsProbe | null> {
  const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
  const run = await ctx.runner({ command: python, args: ['-c', PROBE], cwd: ctx.home, stdin: JSON.stringify([...new Set(names)]), timeoutMs: 30_000, maxOutputBytes: 1024 * 1024 });
  try {
    const answer = JSON.parse(run.stdout) as { installed: Record<string, boolean>; pydantic: boolean };
    return { python, installed: new Map(Object.entries(answer.installed)), pydantic: answer.pydantic };
  } catch {
    return null;
  }
}

const shellQuote = (text: string): string => (/^[A-Za-z0-9_./:=@+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`);

/** The exact command that installs `requirements` for `python`. */
export function pipCommand(python: string, requirements: string[]): string {
  return [python, '-m', 'pip', 'install', ...requirements].map(shellQuote).join(' ');
}

/** A warning listing the unmet requirements of `file` with the pip command, or null when all are met. */
export function unmetRequirementsDiagnostic(file: string, requirements: string[], probe: RequirementsProbe): Diagnostic | null {
  const unmet = requirements.filter((r) => {
    const name = requirementName(r);
    return name !== null && probe.installed.get(name) === false;
  });
  if (unmet.length === 0) return null;
  return {
    severity: 'warning',
    file,
    line: 1,
    code: 'unmet-requirements',
    message: `Its requirements are not installed for ${probe.python}: ${unmet.join(', ')}`,
    hint: `Install them yourself (Tooldesk never installs packages): ${pipCommand(probe.python, unmet)}`,
  };
}

export function missingPydanticDiagnostic(file: string, python: string): Diagnostic {
  return {
    severity: 'warning',
    file,
    line: 1,
    code: 'pydantic-missing',
    message: `pydantic is not installed for ${python}: Valves defaults are read from the file and the tool runs with a minimal stand-in for pydantic (no validation)`,
    hint: `For full Open WebUI behaviour install it: ${pipCommand(python, ['pydantic'])}`,
  };
}
