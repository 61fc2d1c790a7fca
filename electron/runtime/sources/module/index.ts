// Module tools (seed 003): TS/JS factories loaded with jiti (a fresh instance per load, so a
// reload never sees a stale module), and `pi.registerTool` extensions (DESIGN.md, Compatibility).
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { createJiti } from 'jiti';
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { Tool } from '../../tools/types.ts';
import { createModuleApi, hostContext, logsSince, runWithToolSecrets, type ModuleApiState } from './host-api.ts';
import { moduleEntryFiles } from './entry-files.ts';
import { moduleSourceFiles, planImports } from './imports.ts';
import { ensureShimBridges } from './shim/shim-bridges.ts';
import { fastModuleTransform } from './transform.ts';
import { adaptModuleTool, type ModuleToolShape } from './tool-adapter.ts';
import type { LoadResult, SourceContext, SourceEntry, SourceLoader } from '../types.ts';

/** A factory that has not settled by then is reported, not waited for forever. */
export const FACTORY_TIMEOUT_MS = 10_000;

export const loadModuleFactories: SourceLoader = async (entries, ctx) => {
  const result: LoadResult = { groups: [], diagnostics: [] };
  for (const entry of entries) {
    const loaded = await loadModuleEntry(entry, ctx).catch((e: unknown) => ({
      // One module's surprise (a getter that throws, a schema we cannot read) must not cost the others.
      tools: [],
      diagnostics: [{ severity: 'error' as const, file: entry.path, message: `Cannot load module: ${firstLine(e instanceof Error ? e.message : String(e))}`, code: 'module-load-failed' }],
    }));
    result.diagnostics.push(...loaded.diagnostics);
    if (loaded.tools.length > 0) result.groups.push({ name: moduleGroupName(entry.path), tools: loaded.tools });
  }
  return result;
};

/** The folder name, or the file name without its extension. */
export function moduleGroupName(path: string): string {
  const name = basename(path);
  const ext = extname(name);
  return ext && !isDirectory(path) ? name.slice(0, -ext.length) : name;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export async function loadModuleEntry(entry: SourceEntry, ctx: SourceContext): Promise<{ tools: Tool[]; diagnostics: Diagnostic[] }> {
  const { files, diagnostics } = await moduleEntryFiles(entry.path);
  const tools: Tool[] = [];
  const folder = isDirectory(entry.path) ? entry.path : null;
  const toolDir = folder ?? join(entry.path, '..');
  const bridges = shimBridges(ctx.cacheDir);
  const plan = planImports(moduleSourceFiles(entry.path, folder !== null), toolDir, bridges);
  for (const file of files) {
    const loaded = await loadModuleFile(file, entry, toolDir, plan, ctx);
    tools.push(...loaded.tools);
    diagnostics.push(...loaded.diagnostics);
  }
  return { tools, diagnostics };
}

async function loadModuleFile(
  file: string,
  entry: SourceEntry,
  toolDir: string,
  plan: ReturnType<typeof planImports>,
  ctx: SourceContext,
): Promise<{ tools: Tool[]; diagnostics: Diagnostic[] }> {
  const error = (message: string, hint: string, code: string): { tools: Tool[]; diagnostics: Diagnostic[] } => ({
    tools: [],
    diagnostics: [{ severity: 'error', file, message, hint, code }],
  });
  let mod: unknown;
  try {
    mod = await importFresh(file, plan.alias, join(ctx.cacheDir, 'jiti'));
  } catch (e) {
    return error(`Cannot load module: ${firstLine((e as Error).message ?? String(e))}`, 'Fix the error above; imports of pi/oh-my-pi packages, typebox (@sinclair/typebox) and zod are provided by Tooldesk, other packages must be in the tool folder’s node_modules.', 'module-load-failed');
  }
  const factory = factoryOf(mod);
  if (!factory) return error('Tool must export a default function', 'Export a factory: export default (api) => ({name, description, parameters, execute}).', 'module-no-factory');
  const state: ModuleApiState = { registered: [], sessionHandlers: [], otherRegistrations: 0, logs: [], logCount: 0, secrets: [] };
  const label = moduleGroupName(entry.path);
  const api = createModuleApi(ctx, toolDir, label, state);
  let returned: unknown;
  try {
    returned = await withTimeout(Promise.resolve(factory(api)), FACTORY_TIMEOUT_MS);
  } catch (e) {
    return error(`Tool factory threw: ${firstLine(e instanceof Error ? e.message : String(e))}`, 'Fix the factory so it returns its tools without throwing.', 'module-factory-threw');
  }
  const candidates: { raw: unknown; shape: ModuleToolShape }[] = [];
  if (Array.isArray(returned)) for (const raw of returned) candidates.push({ raw, shape: 'factory' });
  else if (returned !== undefined && returned !== null) candidates.push({ raw: returned, shape: 'factory' });
  // Some extensions register their tools in a session_start handler: a module that registered
  // nothing yet but calls registerTool somewhere gets that event once at load, so those tools are
  // found. Pure event extensions are left alone (their handlers may start watchers or servers).
  if (candidates.length === 0 && state.registered.length === 0 && plan.mentionsRegisterTool) await collectSessionStartTools(state);
  for (const raw of state.registered) candidates.push({ raw, shape: 'extension' });
  if (candidates.length === 0 && state.otherRegistrations > 0) {
    return {
      tools: [],
      diagnostics: [{ severity: 'info', file, message: 'This extension registers no tools (only commands or event handlers, which Tooldesk does not use)', code: 'module-no-tools' }],
    };
  }
  if (candidates.length === 0) return error('The factory returned no tools', 'Return a tool (or an array of tools), or call pi.registerTool({...}).', 'module-no-tools');
  const tools: Tool[] = [];
  const diagnostics: Diagnostic[] = [];
  let handlersAttached = false;
  for (const { raw, shape } of candidates) {
    const sessionHandlers = shape === 'extension' && !handlersAttached ? state.sessionHandlers : [];
    const adapted = adaptModuleTool(raw, {
      shape,
      host: plan.host,
      file,
      entry,
      hostContext: (toolCtx) => hostContext(ctx, toolCtx),
      sessionHandlers,
      logMark: () => state.logCount,
      logsSince: (mark) => logsSince(state, mark),
      withSecrets: (secrets, run) => runWithToolSecrets(state, secrets, run),
    });
    diagnostics.push(...adapted.diagnostics);
    if (adapted.tool) {
      if (sessionHandlers.length > 0) handlersAttached = true;
      tools.push(adapted.tool);
    }
  }
  state.secrets = [...new Set(tools.flatMap((tool) => tool.secrets ?? []))];
  return { tools, diagnostics };
}

/**
 * A new jiti without a module cache each time: an edited tool (or a file it imports) reloads
 * fresh. Transpiled sources are cached on disk by content, so an unchanged tool loads fast.
 */
async function importFresh(file: string, alias: Record<string, string>, cacheDir: string): Promise<unknown> {
  const transform = fastModuleTransform();
  const options = { moduleCache: false, alias, interopDefault: true, fsCache: cacheDir };
  if (transform) {
    try {
      return await createJiti(file, { ...options, transform, fsCache: `${cacheDir}-esbuild` }).import(file);
    } catch (error) {
      // esbuild could not transform it (e.g. top-level await): jiti's own transform may.
      if (!isTransformError(error)) throw error;
    }
  }
  return createJiti(file, options).import(file);
}

function isTransformError(error: unknown): boolean {
  return Array.isArray((error as { errors?: unknown }).errors) && /Transform failed/.test((error as Error).message ?? '');
}

function factoryOf(mod: unknown): ((api: unknown) => unknown) | null {
  if (typeof mod === 'function') return mod as (api: unknown) => unknown;
  if (typeof mod === 'object' && mod !== null) {
    const def = (mod as { default?: unknown }).default;
    if (typeof def === 'function') return def as (api: unknown) => unknown;
    // Doubly wrapped default (CJS compiled from ESM): module.exports.default.default
    const inner = (def as { default?: unknown } | undefined)?.default;
    if (typeof inner === 'function') return inner as (api: unknown) => unknown;
  }
  return null;
}

async function collectSessionStartTools(state: ModuleApiState): Promise<void> {
  for (const handler of state.sessionHandlers) {
    try {
      await withTimeout(Promise.resolve(handler({ reason: 'start', sessionId: '' })), FACTORY_TIMEOUT_MS);
    } catch {
      // a handler that fails without a session is reported when a real session starts
    }
  }
}

/** The bridge files live in the cache folder; when that is not writable, in the temp folder. */
function shimBridges(cacheDir: string): ReturnType<typeof ensureShimBridges> {
  try {
    return ensureShimBridges(join(cacheDir, 'module-shim'));
  } catch {
    return ensureShimBridges(join(tmpdir(), `tooldesk-module-shim-${process.getuid?.() ?? 'user'}`));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the factory did not settle within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
