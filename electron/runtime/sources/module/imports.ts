// Reads a module tool's import specifiers to decide which host it was written for and which of
// its imports must be aliased to our shim (DESIGN.md, Compatibility notes).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { BridgeName } from './shim/shim-bridges.ts';
import { DEFAULT_TOOL_SOURCE_MAX_BYTES, unreadableReason } from '../files/read-text-file.ts';

/** pi-mono / earendil's pi call extension tools `execute(id, params, signal, onUpdate, ctx)`; oh-my-pi / xcsh keep the factory order. */
export type ModuleHost = 'pi-mono' | 'oh-my-pi' | 'unknown';

const HOST_PACKAGE = /^@(?:mariozechner|oh-my-pi|earendil-works)\/pi-[\w.-]+(?:\/.*)?$|^@f5-sales-demo\/xcsh(?:\/.*)?$/;
const PI_MONO = /^@(?:mariozechner|earendil-works)\//;
const OH_MY_PI = /^@oh-my-pi\/|^@f5-sales-demo\/xcsh/;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"\n]+)\1/gm;
const SOURCE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.tsx']);
/** Enough for any real tool folder; keeps a stray huge folder from stalling discovery. */
const MAX_SCANNED_FILES = 200;

export function importSpecifiers(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(SPECIFIER)) found.add(match[2]!);
  return [...found];
}

/** The sources of a module entry: the loose file, or the folder's files outside node_modules. */
export function moduleSourceFiles(entryPath: string, isDirectory: boolean, maxBytes = DEFAULT_TOOL_SOURCE_MAX_BYTES): string[] {
  if (!isDirectory) return [entryPath];
  const files: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (files.length >= MAX_SCANNED_FILES) return;
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile() && stat.size <= maxBytes && SOURCE_EXTENSIONS.has(extname(name)) && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(entryPath);
  return files;
}

export interface ImportPlan {
  host: ModuleHost;
  /** jiti aliases: exact specifier → file. */
  alias: Record<string, string>;
  /** Its code calls `registerTool` somewhere (so an extension with none registered yet may add some later). */
  mentionsRegisterTool: boolean;
}

/** Package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** True when the tool's own node_modules (or one above it) provides the package. */
function ownDependency(fromDir: string, pkg: string): boolean {
  let dir = fromDir;
  for (;;) {
    if (existsSync(join(dir, 'node_modules', pkg))) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

const appRequire = createRequire(import.meta.url);

/**
 * TypeBox 1.x is published as `typebox` (earendil's pi imports it so); its `Type` builders match
 * the 0.34 `@sinclair/typebox` we ship, so both names get ours. Its renamed subpaths map here.
 */
const TYPEBOX_SUBPATHS: Record<string, string> = {
  'typebox/value': '@sinclair/typebox/value',
  'typebox/compile': '@sinclair/typebox/compiler',
  'typebox/compiler': '@sinclair/typebox/compiler',
  'typebox/errors': '@sinclair/typebox/errors',
  'typebox/system': '@sinclair/typebox/system',
};

export function planImports(files: string[], toolDir: string, bridges: Record<BridgeName, string>, maxBytes = DEFAULT_TOOL_SOURCE_MAX_BYTES): ImportPlan {
  const specs = new Set<string>();
  let mentionsRegisterTool = false;
  for (const file of files) {
    if (unreadableReason(file, maxBytes)) continue;
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const spec of importSpecifiers(source)) specs.add(spec);
    if (!mentionsRegisterTool && /\bregisterTool\b/.test(source)) mentionsRegisterTool = true;
  }
  let piMono = false;
  let ohMyPi = false;
  const alias: Record<string, string> = {};
  for (const spec of specs) {
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) continue;
    if (HOST_PACKAGE.test(spec)) {
      if (PI_MONO.test(spec)) piMono = true;
      if (OH_MY_PI.test(spec)) ohMyPi = true;
      alias[spec] = bridges.pi;
      continue;
    }
    const pkg = packageName(spec);
    if (pkg !== '@sinclair/typebox' && pkg !== 'typebox' && pkg !== 'zod') continue;
    if (ownDependency(toolDir, pkg)) continue;
    if (spec === '@sinclair/typebox' || spec === 'typebox') alias[spec] = bridges.typebox;
    else if (spec === 'zod') alias[spec] = bridges.zod;
    else {
      try {
        alias[spec] = appRequire.resolve(TYPEBOX_SUBPATHS[spec] ?? spec);
      } catch {
        // left unresolved: jiti reports the missing module when the tool loads
      }
    }
  }
  // A module importing both kinds was most likely written for oh-my-pi (which re-exports pi-ai).
  const host: ModuleHost = ohMyPi ? 'oh-my-pi' : piMono ? 'pi-mono' : 'unknown';
  return { host, alias, mentionsRegisterTool };
}
