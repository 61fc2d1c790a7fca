// `skills deps NAME --add PKG`: a skill's own Python environment under TOOLDESK_HOME, filled by
// pip as the user configured it (pip's config files and PIP_* variables; never an index URL of
// ours). pip runs sandboxed and writes only a staging copy outside the app's folder; the app moves
// it into place. Its network is the package index only: none when every configured location is
// on disk, else only the index's hosts through deps/index-only-network.ts. "Installed" means the
// import works: each package is imported afterwards, sandboxed and offline.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import { sandboxSpecFor } from '../process/sandbox-spec-for.ts';
import type { SourceContext } from '../types.ts';
import { indexOnlyNetwork, type IndexOnlyNetwork } from './deps/index-only-network.ts';
import { pipIndexes } from './deps/pip-index-hosts.ts';
import { skillEnvDir } from './skill-env.ts';
import type { Skill } from './skill-types.ts';

const PIP_TIMEOUT_MS = 10 * 60_000;

/** Imports each distribution by its own name, else by the top-level modules its files hold. */
const IMPORT_PROBE = `import importlib, importlib.metadata as md, sys
def tops(dist):
    names = []
    for f in md.distribution(dist).files or []:
        if len(f.parts) == 2 and f.parts[1] == "__init__.py" or len(f.parts) == 1 and f.suffix == ".py":
            names.append(f.parts[0].removesuffix(".py"))
    return names
def probe(dists):
    bad = []
    for dist in dists:
        for name in [dist.lower().replace("-", "_"), *tops(dist)]:
            try:
                importlib.import_module(name)
                break
            except ImportError:
                continue
        else:
            bad.append(dist)
    if bad:
        print("cannot import: " + ", ".join(bad))
        sys.exit(1)`;

/** What a skill asks for: its requirements.txt and PEP 723 `# /// script` blocks of its scripts. */
export function declaredDeps(skill: Pick<Skill, 'dir' | 'files'>): string[] {
  const found = new Set<string>();
  const read = (rel: string) => {
    try {
      return readFileSync(join(skill.dir, rel), 'utf8');
    } catch {
      return '';
    }
  };
  for (const rel of skill.files) {
    if (rel === 'requirements.txt' || rel.endsWith('/requirements.txt')) {
      for (const line of read(rel).split('\n')) {
        const req = line.replace(/#.*/, '').trim();
        if (req && !req.startsWith('-')) found.add(req);
      }
    } else if (rel.endsWith('.py')) {
      const block = /^# \/\/\/ script\s*\n((?:#.*\n)*?)# \/\/\/\s*$/m.exec(read(rel));
      const deps = block ? /dependencies\s*=\s*\[([^\]]*)\]/.exec(block[1]!.replace(/^# ?/gm, '')) : null;
      for (const m of deps?.[1]?.matchAll(/["']([^"']+)["']/g) ?? []) found.add(m[1]!);
    }
  }
  return [...found].sort();
}

/** A pip requirement's import name (the common case: `pypdf>=4` → pypdf, `python-dateutil` → python_dateutil). */
const distName = (requirement: string): string => requirement.split(/[<>=!~;[\s]/)[0]!.trim();

export interface DepsOutcome {
  ok: boolean;
  /** What happened, for the user (which packages, whether each import works, or why not). */
  message: string;
  envDir: string;
}

/** Contract: never throws; `packages` were approved by the user. */
export async function installSkillDeps(ctx: SourceContext, skill: Skill, packages: string[], signal?: AbortSignal): Promise<DepsOutcome> {
  const envDir = skillEnvDir(ctx.home, skill.id);
  const staging = mkdtempSync(join(tmpdir(), 'tooldesk-skill-env-'));
  const staged = join(staging, 'env');
  let net: IndexOnlyNetwork | undefined;
  try {
    const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
    if (existsSync(envDir)) cpSync(envDir, staged, { recursive: true, verbatimSymlinks: true });
    // PIP_* variables are part of how the user configured pip (index, find-links, certificates).
    const pipEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.startsWith('PIP_') && v !== undefined)) as Record<string, string>;
    // Network off: the step's only way out is the index proxy (when the index is not on disk).
    const box = { ...sandboxSpecFor(ctx, 'skill-deps', staging, false), workDir: staging, writableToolDir: true };
    const env = { ...pipEnv, PYTHONDONTWRITEBYTECODE: '1' };
    const config = await ctx.runner({ command: python, args: ['-m', 'pip', 'config', 'list'], cwd: staging, env, timeoutMs: 60_000, sandbox: box, maxOutputBytes: ctx.outputCapBytes });
    const indexes = pipIndexes(config.stdout);
    net = indexes.hosts.length ? await indexOnlyNetwork(staging, python, indexes.hosts) : undefined;
    const script = [
      net?.prelude ?? ':',
      existsSync(envDir) ? ':' : `"${python}" -m venv "${staged}"`,
      `"${staged}/bin/python" -m pip install --disable-pip-version-check --no-input ${packages.map((p) => `'${p.replace(/'/g, '')}'`).join(' ')}`,
    ];
    const body = `${script[0]}
(${script.slice(1).join(' && ')}); rc=$?
${net?.epilogue ?? ':'}
exit $rc`;
    const pip = await ctx.runner({ command: '/bin/sh', args: ['-c', body], cwd: staging, env, timeoutMs: PIP_TIMEOUT_MS, ...(signal ? { signal } : {}), sandbox: box, maxOutputBytes: ctx.outputCapBytes });
    await net?.close();
    const reach = indexes.hosts.length ? `network: only ${indexes.hosts.join(', ')}${net?.refused.length ? `; refused ${[...new Set(net.refused)].join(', ')}` : ''}` : 'network: off (the index is on disk)';
    const unconfined = pip.sandboxed ? '' : ' — no sandbox here: pip itself used only the index proxy, but code a package build runs was not confined';
    if (pip.exitCode !== 0) {
      const text = `${pip.stdout}\n${pip.stderr}`;
      const offline = /(Network is unreachable|Temporary failure in name resolution|Failed to establish a new connection|No matching distribution found|Could not find a version)/.test(text);
      const tail = (pip.spawnError ?? text).trim().split('\n').slice(-6).join('\n');
      return { ok: false, envDir, message: `${offline ? `pip could not get ${packages.join(', ')} from the package index pip is configured with (offline, or not there)` : 'pip failed'} (${reach}${unconfined}):\n${tail}` };
    }
    rmSync(envDir, { recursive: true, force: true });
    mkdirSync(dirname(envDir), { recursive: true });
    moveDir(staged, envDir);
    // Installed means the import works: from the final place, sandboxed, network off.
    const probe = `${IMPORT_PROBE}\nprobe(${JSON.stringify(packages.map(distName))})\n`;
    const imported = await ctx.runner({ command: join(envDir, 'bin/python'), args: ['-c', probe], cwd: ctx.workingDir, timeoutMs: 60_000, sandbox: sandboxSpecFor(ctx, 'skill-deps', envDir, false), maxOutputBytes: ctx.outputCapBytes });
    if (imported.exitCode !== 0) return { ok: false, envDir, message: `pip installed ${packages.join(', ')}, but importing fails:\n${(imported.stdout + imported.stderr).trim()}` };
    return { ok: true, envDir, message: `installed for skill ${skill.id}: ${packages.join(', ')} (the import works) in ${envDir} (${reach}${unconfined})` };
  } catch (error) {
    return { ok: false, envDir, message: `could not set up the environment: ${(error as Error).message}` };
  } finally {
    await net?.close();
    rmSync(staging, { recursive: true, force: true });
  }
}

function moveDir(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
}
