// What users run: the `tooldesk` bundle in out/cli (electron/cli/cli-bundle.mjs). --version and
// help load none of the runtime (the loaded module list, mapped back to sources through the
// build's manifest), commands load only what they use, and a changed source is rebuilt first.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle, cliBundleState, cliOutDir } from '../../electron/cli/cli-bundle.mjs';
import { copyFixtures } from '../support/module-tool-fixtures.ts';
import { repoRoot } from '../support/run-cli.ts';
import { homeWithSessions } from '../support/session-homes.ts';

const bin = join(repoRoot, 'electron/cli/bin.mjs');
const tracer = join(repoRoot, 'test/support/trace-modules.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Sources (relative to the checkout) and packages the process loaded. */
  sources: string[];
  packages: string[];
}

interface Manifest {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/**
 * Runs the bundled `tooldesk args…` (TOOLDESK_FROM_SOURCES unset) and lists what it loaded;
 * `until` ends a long-running command (SIGTERM) once its stdout matches.
 */
function runBundled(args: string[], home: string, until?: RegExp): Promise<Run> {
  const trace = join(mkdtempSync(join(tmpdir(), 'td-trace-')), 'modules.txt');
  const env: NodeJS.ProcessEnv = { ...process.env, TOOLDESK_HOME: home, TOOLDESK_TRACE_MODULES: trace, TOOLDESK_SECRET_SERVICE: `TooldeskTest-${process.pid}` };
  delete env.TOOLDESK_FROM_SOURCES;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tracer, bin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (until?.test(stdout)) setTimeout(() => child.kill('SIGTERM'), 1000); // a moment idle first
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const loaded = readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((l) => (l.startsWith('file://') ? new URL(l).pathname : l));
      const manifest = JSON.parse(readFileSync(join(cliOutDir(), 'manifest.json'), 'utf8')) as Manifest;
      const sources = new Set<string>();
      for (const path of loaded) {
        const output = manifest.outputs[relative(repoRoot, path)];
        if (path.startsWith(cliOutDir())) for (const input of Object.keys(output?.inputs ?? { [`unknown output ${path}`]: 1 })) sources.add(input);
        else sources.add(relative(repoRoot, path));
      }
      // Bundled or not, a package is a package: ajv inside a chunk counts like ajv from node_modules.
      const packages = new Set([...sources].map((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1]).filter((p): p is string => p !== undefined));
      resolve({ code, stdout, stderr, sources: [...sources].sort(), packages: [...packages].sort() });
    });
  });
}

const home = mkdtempSync(join(tmpdir(), 'td-bundle-home-'));

beforeAll(async () => {
  if (!cliBundleState().fresh) await buildCliBundle();
}, 60_000);

describe('tooldesk from the bundle', () => {
  it('--version and help load nothing of the runtime and no package', async () => {
    for (const args of [['--version'], ['help'], []]) {
      const run = await runBundled(args, home);
      expect(run.code, run.stderr).toBe(0);
      expect(run.sources.length).toBeGreaterThan(2); // the tracer saw the bundle's own files
      expect(run.sources.filter((s) => s.startsWith('electron/runtime/'))).toEqual([]);
      expect(run.sources.filter((s) => s.startsWith('electron/cli/commands/') && !s.endsWith('/index.ts'))).toEqual([]);
      expect(run.packages).toEqual([]);
    }
    const version = await runBundled(['--version'], home);
    expect(version.stdout).toBe(`${JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version}\n`);
    const help = await runBundled(['help'], home);
    expect(help.stdout).toMatch(/^ {2}sessions +List, show, search, export, rename or delete chat sessions$/m);
  });

  it('sessions list (100 sessions) loads no tool, MCP, chat-model or ajv-compiler code', async () => {
    const run = await runBundled(['sessions', 'list'], homeWithSessions(100));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(100);
    // Nothing that finds, loads or runs tools (the tool roots' names and the sandbox's status are read by createRuntime).
    const light = new Set(['electron/runtime/sources/discovery/tool-roots.ts', 'electron/runtime/runner/sandbox-status.ts', 'electron/runtime/runner/sandbox-detect.ts']);
    expect(run.sources.filter((s) => /^electron\/runtime\/(sources|runner|host)\//.test(s) && !light.has(s))).toEqual([]);
    expect(run.packages.filter((p) => ['@modelcontextprotocol/client', 'execa', 'openai', 'zod', 'conf'].includes(p))).toEqual([]);
    // The settings check is ajv's precompiled code: a few run-time helpers, never its compiler.
    expect(run.sources.filter((s) => s.includes('node_modules/ajv/') && !s.includes('/ajv/dist/runtime/'))).toEqual([]);
  });

  it('tools list loads no chat code, and no MCP SDK while no MCP server is configured', async () => {
    // A copy: listing writes the smart-load cache beside the module.
    const run = await runBundled(['tools', 'list', '--root', copyFixtures('py-google-weather')], mkdtempSync(join(tmpdir(), 'td-tools-home-')));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('get_forecast');
    expect(run.sources.filter((s) => /^electron\/runtime\/(chat|llm)\//.test(s))).toEqual([]);
    expect(run.packages.filter((p) => ['@modelcontextprotocol/client', 'openai'].includes(p))).toEqual([]);
  });

  it('browser mode idles without the MCP SDK, zod, openai or ajv (they load with the first server or request)', async () => {
    const run = await runBundled(['serve', '--port', '0', '--no-build'], mkdtempSync(join(tmpdir(), 'td-serve-home-')), /#token=/);
    expect(run.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/#token=/);
    expect(run.packages.filter((p) => ['@modelcontextprotocol/client', 'zod', 'openai', 'execa'].includes(p))).toEqual([]);
    expect(run.sources.filter((s) => s.includes('node_modules/ajv/') && !s.includes('/ajv/dist/runtime/'))).toEqual([]);
    expect(run.packages).toContain('ws'); // the tracer saw the server's own packages
  });

  it('rebuilds itself first when a source it was built from changed, then runs the new build', async () => {
    const manifestFile = join(cliOutDir(), 'manifest.json');
    const source = join(repoRoot, 'electron/cli/version.ts');
    const before = statSync(source);
    const builtBefore = (JSON.parse(readFileSync(manifestFile, 'utf8')) as { builtAt: number }).builtAt;
    try {
      const later = new Date(builtBefore + 2000);
      utimesSync(source, later, later);
      expect(cliBundleState()).toEqual({ fresh: false, reason: 'electron/cli/version.ts changed' });
      const run = await runBundled(['--version'], home);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
      // esbuild ran in that process: it is the only time the bundled CLI loads it.
      expect(run.packages).toContain('esbuild');
      expect(cliBundleState().fresh).toBe(true);
      const again = await runBundled(['--version'], home);
      expect(again.packages).toEqual([]);
    } finally {
      utimesSync(source, before.atime, before.mtime);
    }
  });

  it('a missing input or output makes the build stale, naming it', async () => {
    const outDir = mkdtempSync(join(repoRoot, 'out', 'cli-test-'));
    try {
      expect(cliBundleState(outDir)).toEqual({ fresh: false, reason: 'the command line has not been built yet' });
      await buildCliBundle({ outDir });
      expect(cliBundleState(outDir).fresh).toBe(true);
      rmSync(join(outDir, 'main.js'));
      expect(cliBundleState(outDir)).toEqual({ fresh: false, reason: `${relative(repoRoot, outDir)}/main.js is missing` });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
