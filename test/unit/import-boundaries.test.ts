// DESIGN.md: runtime/ and shared/ never import electron; shared/ imports nothing platform-specific.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.(ts|tsx|mts|js|mjs)$/.test(d.name))
    .map((d) => join(d.parentPath, d.name));
}

/** Every module specifier a file imports, requires or dynamically imports. */
export function importedSpecifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[\w*{}\s,]+\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]!);
  return found;
}

const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
/** `node:test` or `node:sqlite` exist only with the prefix, so builtinModules does not list them. */
const isNodeBuiltin = (s: string) => nodeBuiltins.has(s) || s.startsWith('node:');

function offenders(dir: string, forbidden: (specifier: string) => boolean): string[] {
  return sourceFiles(join(root, dir)).flatMap((file) =>
    importedSpecifiers(readFileSync(file, 'utf8'))
      .filter(forbidden)
      .map((s) => `${relative(root, file)} imports ${s}`),
  );
}

const isElectron = (s: string) => s === 'electron' || s.startsWith('electron/');

/** Each relative import of the files under `dir`, as paths from the repository root (`electron/runtime/tools/x.ts`). */
function localImports(dir: string): { file: string; target: string }[] {
  return sourceFiles(join(root, dir)).flatMap((file) =>
    importedSpecifiers(readFileSync(file, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => ({ file: relative(root, file).split(sep).join('/'), target: relative(root, resolve(dirname(file), s)).split(sep).join('/') })),
  );
}

const runtime = (part: string) => `electron/runtime/${part}`;
const under = (target: string, folder: string) => target.startsWith(`${runtime(folder)}/`);
const layerViolations = (from: string, forbidden: string[]) =>
  localImports(runtime(from))
    .filter(({ target }) => forbidden.some((folder) => under(target, folder)))
    .map(({ file, target }) => `${file} imports ${target}`);

/** What the CLI may use of the runtime: the composition root and the parts' public faces, never a tool format's or the runner's internals. */
const CLI_MAY_IMPORT = [runtime('create-runtime.ts'), runtime('paths.ts'), ...['base', 'host', 'store', 'tools', 'chat', 'llm', 'audit', 'schedules'].map((f) => `${runtime(f)}/`)];

describe('import boundaries', () => {
  it('finds imports of every syntax', () => {
    const src = `import a from 'x1'; import type { B } from "x2"; export { c } from 'x3'; await import('x4'); require("x5"); import 'x6';`;
    expect(importedSpecifiers(src)).toEqual(expect.arrayContaining(['x1', 'x2', 'x3', 'x4', 'x5', 'x6']));
  });

  it('knows what counts as electron and as a Node built-in', () => {
    expect(['electron', 'electron/main'].every(isElectron)).toBe(true);
    expect(isElectron('electron-store')).toBe(false);
    expect(['fs', 'node:fs', 'fs/promises', 'node:test', 'path'].every(isNodeBuiltin)).toBe(true);
    expect(isNodeBuiltin('../runtime/paths.ts')).toBe(false);
  });

  it('electron/runtime never imports electron', () => {
    expect(offenders('electron/runtime', isElectron)).toEqual([]);
  });

  it('shared never imports electron or Node built-ins', () => {
    expect(offenders('shared', (s) => isElectron(s) || isNodeBuiltin(s))).toEqual([]);
  });
});

describe('runtime layers (DESIGN: one composition root)', () => {
  it('resolves relative imports to repository paths', () => {
    const found = localImports('electron/cli');
    expect(found.some(({ target }) => target === runtime('create-runtime.ts'))).toBe(true);
    expect(found.every(({ target }) => !target.startsWith('..'))).toBe(true);
  });

  it('the CLI uses the runtime through createRuntime and the parts\' entry points only', () => {
    const offenders = localImports('electron/cli')
      .filter(({ target }) => target.startsWith(`${runtime('')}`) && !CLI_MAY_IMPORT.some((allowed) => target === allowed || (allowed.endsWith('/') && target.startsWith(allowed))))
      .map(({ file, target }) => `${file} imports ${target}`);
    expect(offenders).toEqual([]);
  });

  it('the Electron glue builds the runtime only through createRuntime', () => {
    const offenders = localImports('electron/main')
      .filter(({ target }) => target.startsWith(runtime('')) && (under(target, 'sources') || under(target, 'runner') || under(target, 'chat')))
      .map(({ file, target }) => `${file} imports ${target}`);
    expect(offenders).toEqual([]);
  });

  it('schedules run through chat sessions: never a tool source or the runner', () => {
    expect(layerViolations('schedules', ['sources', 'runner'])).toEqual([]);
  });

  it('chat never imports a tool source', () => {
    expect(layerViolations('chat', ['sources'])).toEqual([]);
  });

  it('tools never import sources, the runner, chat, apps or the settings store', () => {
    // The store adapts settings to the executor's interfaces (permission-store.ts, settings-rule-book.ts), not the other way round.
    expect(layerViolations('tools', ['sources', 'runner', 'chat', 'apps', 'store'])).toEqual([]);
  });

  it('sources never import apps, chat or the host', () => {
    expect(layerViolations('sources', ['apps', 'chat', 'host'])).toEqual([]);
  });

  it('apps never import chat or the host: the host joins an app to its chat (host/apps/app-service.ts)', () => {
    expect(layerViolations('apps', ['chat', 'host'])).toEqual([]);
  });

  it('the runner never imports tools, sources or chat', () => {
    expect(layerViolations('runner', ['tools', 'sources', 'chat'])).toEqual([]);
  });

  it('the executor is private to tools/: everything else goes through the ToolSession (one door)', () => {
    const offenders = ['electron', 'renderer', 'shared'].flatMap((dir) =>
      localImports(dir)
        .filter(({ file, target }) => target === runtime('tools/tool-executor.ts') && !file.startsWith(`${runtime('tools')}/`))
        .map(({ file }) => `${file} imports the executor`),
    );
    expect(offenders).toEqual([]);
  });

  it('the CLI never composes `mcp serve`: it asks createRuntime().mcpServer()', () => {
    expect(localImports('electron/cli').filter(({ target }) => under(target, 'host/mcp-server')).map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
  });

  it('a violation would be caught (the rule is not vacuous)', () => {
    // sources/ does import tools/ and runner/: the same check on it must find them.
    expect(layerViolations('sources', ['tools', 'runner']).length).toBeGreaterThan(0);
  });
});
