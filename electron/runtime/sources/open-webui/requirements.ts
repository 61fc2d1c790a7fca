// Which `requirements` of Open WebUI files the configured interpreter lacks, which of the modules
// they import at top level it cannot find, and whether it has pydantic: one process for all files
// (with site-packages, unlike the parser; `find_spec` locates a module without importing it).
// Never installs.
import type { Diagnostic } from '../../../../shared/tools.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import type { SourceContext } from '../types.ts';

// Reads {distributions, modules} on stdin; prints which are installed / found, and whether pydantic is.
const PROBE = [
  'import importlib.metadata as m, importlib.util as u, json, sys',
  'def has(name):',
  '    try:',
  '        m.distribution(name)',
  '        return True',
  '    except Exception:',
  '        return False',
  'def found(name):',
  '    try:',
  '        return u.find_spec(name) is not None',
  '    except Exception:',
  '        return False',
  'asked = json.load(sys.stdin)',
  "print(json.dumps({'installed': {n: has(n) for n in asked['distributions']}, 'modules': {n: found(n) for n in asked['modules']}, 'pydantic': found('pydantic')}))",
].join('\n');

/** The usual distribution of an import name where the two differ (what `pip install` needs). */
const DISTRIBUTION_OF: Record<string, string> = {
  yaml: 'pyyaml', bs4: 'beautifulsoup4', PIL: 'pillow', cv2: 'opencv-python', sklearn: 'scikit-learn',
  dateutil: 'python-dateutil', docx: 'python-docx', pptx: 'python-pptx', dotenv: 'python-dotenv', fitz: 'pymupdf',
  googleapiclient: 'google-api-python-client', jwt: 'pyjwt', magic: 'python-magic', serial: 'pyserial', Crypto: 'pycryptodome',
};
export const distributionOf = (module: string): string => DISTRIBUTION_OF[module] ?? module;
const sameName = (a: string, b: string) => a.toLowerCase().replace(/[-_.]+/g, '-') === b.toLowerCase().replace(/[-_.]+/g, '-');

/** The distribution name of a requirement line (`pkg[extra]>=1.0; marker` → `pkg`), or null. */
export function requirementName(requirement: string): string | null {
  const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement);
  return match ? match[1]! : null;
}

export interface RequirementsProbe {
  python: string;
  installed: Map<string, boolean>;
  /** Top-level modules the files import: whether the interpreter finds each (absent: not asked). */
  modules?: Map<string, boolean>;
  pydantic: boolean;
}

/** Contract: never throws; null when the interpreter could not answer (its own diagnostic says why). */
export async function probeRequirements(names: string[], ctx: SourceContext, modules: string[] = []): Promise<RequirementsProbe | null> {
  const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
  const stdin = JSON.stringify({ distributions: [...new Set(names)], modules: [...new Set(modules)] });
  const run = await ctx.runner({ command: python, args: ['-c', PROBE], cwd: ctx.home, stdin, timeoutMs: 30_000, maxOutputBytes: 1024 * 1024 });
  try {
    const answer = JSON.parse(run.stdout) as { installed: Record<string, boolean>; modules: Record<string, boolean>; pydantic: boolean };
    return { python, installed: new Map(Object.entries(answer.installed)), modules: new Map(Object.entries(answer.modules)), pydantic: answer.pydantic };
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

/**
 * A warning naming each top-level import the interpreter cannot find (every call would fail with
 * ModuleNotFoundError), with the pip command; a module its `requirements:` line already names is
 * left to that line's own warning. Null when all are found.
 */
export function missingImportsDiagnostic(file: string, imports: Array<{ name: string; line: number }>, requirements: string[], probe: RequirementsProbe): Diagnostic | null {
  const declared = requirements.map(requirementName).filter((n): n is string => n !== null);
  const missing = imports.filter((i) => probe.modules?.get(i.name) === false && !declared.some((d) => sameName(d, i.name) || sameName(d, distributionOf(i.name))));
  if (missing.length === 0) return null;
  const names = missing.map((m) => m.name).join(', ');
  const packages = missing.map((m) => distributionOf(m.name));
  return {
    severity: 'warning',
    file,
    line: missing[0]!.line,
    code: 'missing-import',
    message: `It imports ${names}, which ${missing.length === 1 ? 'is' : 'are'} not installed for ${probe.python} (and not in its requirements): every call of its tools fails until ${missing.length === 1 ? 'it is' : 'they are'} installed`,
    hint: `Install ${missing.length === 1 ? 'it' : 'them'} yourself (Tooldesk never installs packages): ${pipCommand(probe.python, packages)}; the toolkit's author can list ${missing.length === 1 ? 'it' : 'them'} on its "requirements:" line`,
  };
}
