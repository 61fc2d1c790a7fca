// How the tool host (host/main.ts) is started. The built app has it as its own bundle beside the
// main process (electron.vite.config.ts: `module-host`), run by Electron's binary as Node. From
// the sources (CLI, tests, bench) it is bundled once with esbuild into a single CommonJS file,
// so the host starts as plain Node in ~0.2 s instead of ~0.8 s through tsx's loader.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeCommand } from '../process/sandbox-spec-for.ts';

export interface HostLaunch {
  command: string;
  /** The host script; the caller appends the host's JSON config. */
  args: string[];
  env: Record<string, string>;
  /** What the host must be able to read inside the sandbox (its script, when under /tmp). */
  readOnlyPaths: string[];
}

const BUILT_NAME = 'module-host.js';
/** Bump when the build options below change (the manifest then points at no bundle yet). */
const RECIPE = 'cjs-typebox-zod-inside-1';
const BUNDLED = /^(?:@sinclair\/typebox|zod)(?:\/|$)/;
const here = fileURLToPath(import.meta.url);
const fromSources = /\.ts$/.test(here);

let memo: Promise<HostLaunch | { error: string }> | undefined;

/** Never throws; the same answer for the whole process once it succeeded. */
export function hostLaunch(fallbackDir: string): Promise<HostLaunch | { error: string }> {
  memo ??= locate(fallbackDir).then((launch) => {
    if ('error' in launch) memo = undefined;
    return launch;
  });
  return memo;
}

async function locate(fallbackDir: string): Promise<HostLaunch | { error: string }> {
  const node = nodeCommand();
  try {
    const script = fromSources ? await bundledFromSources(fallbackDir) : builtScript();
    if (typeof script !== 'string') return script;
    return { command: node.command, args: [script], env: node.env, readOnlyPaths: [script] };
  } catch (error) {
    return { error: `the module tool host cannot be prepared: ${(error as Error).message}` };
  }
}

function builtScript(): string | { error: string } {
  // The main bundle may sit in out/main or in a chunk folder below it.
  for (const dir of [dirname(here), dirname(dirname(here))]) {
    const candidate = join(dir, BUILT_NAME);
    if (existsSync(candidate)) return candidate;
  }
  return { error: `the module tool host (${BUILT_NAME}) is missing beside ${here}; rebuild the app` };
}

/** A folder only this user can write: the shared temp folder's, or the app's cache. */
function bundleDir(fallbackDir: string): string {
  const uid = process.getuid?.() ?? 'user';
  const shared = join(tmpdir(), `tooldesk-module-host-${uid}`);
  try {
    mkdirSync(shared, { recursive: true, mode: 0o700 });
    const stat = lstatSync(shared);
    const mine = !process.getuid || stat.uid === process.getuid();
    if (stat.isDirectory() && mine && (stat.mode & 0o022) === 0) return shared;
  } catch {
    // fall through to the cache folder
  }
  const own = join(fallbackDir, 'module-host');
  mkdirSync(own, { recursive: true });
  return own;
}

interface Manifest {
  inputs: Record<string, [number, number]>;
  out: string;
}

async function bundledFromSources(fallbackDir: string): Promise<string | { error: string }> {
  const dir = bundleDir(fallbackDir);
  const entry = join(dirname(here), 'host', 'main.ts');
  const manifestFile = join(dir, `manifest-${createHash('sha1').update(`${RECIPE}\0${entry}`).digest('hex').slice(0, 12)}.json`);
  const fresh = freshBundle(manifestFile);
  if (fresh) return fresh;

  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as typeof import('esbuild');
  const built = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
    absWorkingDir: dirname(entry),
    // Resolving from the bundle's folder would find nothing: the sources' own folder stands in.
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(entry).href) },
    plugins: [
      {
        name: 'packages-by-absolute-path',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) => {
            if (isBuiltin(args.path)) return { path: args.path, external: true };
            // TypeBox and zod are many small files: inside the bundle the host starts faster.
            if (BUNDLED.test(args.path)) return undefined;
            return { path: createRequire(args.importer).resolve(args.path), external: true };
          });
        },
      },
    ],
  });
  const code = built.outputFiles[0]!.text;
  const out = join(dir, `host-${createHash('sha1').update(code).digest('hex').slice(0, 16)}.cjs`);
  atomicWrite(out, code);
  const inputs: Manifest['inputs'] = {};
  // This file too: it holds the recipe (what is bundled, what stays outside).
  for (const input of [here, ...Object.keys(built.metafile.inputs)]) {
    const path = resolve(dirname(entry), input);
    const stat = statSync(path);
    inputs[path] = [stat.mtimeMs, stat.size];
  }
  atomicWrite(manifestFile, JSON.stringify({ inputs, out } satisfies Manifest));
  return out;
}

/** The bundle of the last build, when none of its inputs changed since. */
function freshBundle(manifestFile: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    if (!existsSync(manifest.out)) return null;
    for (const [path, [mtime, size]] of Object.entries(manifest.inputs)) {
      const stat = statSync(path);
      if (stat.mtimeMs !== mtime || stat.size !== size) return null;
    }
    return manifest.out;
  } catch {
    return null;
  }
}

function atomicWrite(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}
