// Loads one module entry inside the tool host: jiti (without a module cache, so a reload never
// sees a stale module), the factory or `pi.registerTool` extension, adapted into tools.
import { join } from 'node:path';
import { createJiti, type Jiti } from 'jiti';
import type { Diagnostic } from '../../../../../shared/tools.ts';
import type { Tool } from '../../../tools/types.ts';
import type { SourceEntry } from '../../types.ts';
import { moduleEntryFiles } from '../entry-files.ts';
import { isDirectory } from '../group-name.ts';
import { createModuleApi, hostContext, logsSince, runWithToolSecrets, type HostEnv, type ModuleApiState } from '../host-api.ts';
import { moduleSourceFiles, planImports } from '../imports.ts';
import type { BridgeName } from '../shim/shim-bridges.ts';
import { adaptModuleTool, type ModuleToolShape } from '../tool-adapter.ts';

export interface LoadOptions {
  env: HostEnv;
  bridges: Record<BridgeName, string>;
  /** jiti's `transform` (esbuild, cached), or undefined for jiti's own. */
  transform?: (opts: { source: string; filename?: string; ts?: boolean }) => { code: string };
  /**
   * One jiti per alias map for every load (the host's: see jitiPerAlias). Without it each load
   * makes its own, as the app did before the tool host.
   */
  jiti?: (alias: Record<string, string>, make: () => Jiti) => Jiti;
  /** A writable folder for jiti's own cache (the fallback transform). */
  scratchDir: string;
  factoryTimeoutMs: number;
  /** settings.limits.toolSourceMaxBytes */
  maxSourceBytes?: number;
}

export interface LoadedTool {
  key: string;
  tool: Tool;
}

export async function loadModuleEntry(entry: SourceEntry, options: LoadOptions): Promise<{ tools: LoadedTool[]; diagnostics: Diagnostic[] }> {
  const { files, diagnostics } = await moduleEntryFiles(entry.path, options.maxSourceBytes);
  const tools: LoadedTool[] = [];
  const folder = isDirectory(entry.path) ? entry.path : null;
  const toolDir = folder ?? join(entry.path, '..');
  const plan = planImports(moduleSourceFiles(entry.path, folder !== null, options.maxSourceBytes), toolDir, options.bridges, options.maxSourceBytes);
  for (const file of files) {
    const loaded = await loadModuleFile(file, entry, plan, options).catch((e: unknown) => ({
      // One module's surprise (a getter that throws, a schema we cannot read) must not cost the others.
      tools: [],
      diagnostics: [{ severity: 'error' as const, file, message: `Cannot load module: ${firstLine(e instanceof Error ? e.message : String(e))}`, code: 'module-load-failed' }],
    }));
    const seen = new Map<string, number>();
    for (const tool of loaded.tools) {
      const name = tool.definition.function.name;
      const n = seen.get(name) ?? 0;
      seen.set(name, n + 1);
      tools.push({ key: `${file}#${name}#${n}`, tool });
    }
    diagnostics.push(...loaded.diagnostics);
  }
  return { tools, diagnostics };
}

async function loadModuleFile(file: string, entry: SourceEntry, plan: ReturnType<typeof planImports>, options: LoadOptions): Promise<{ tools: Tool[]; diagnostics: Diagnostic[] }> {
  const error = (message: string, hint: string, code: string): { tools: Tool[]; diagnostics: Diagnostic[] } => ({
    tools: [],
    diagnostics: [{ severity: 'error', file, message, hint, code }],
  });
  let mod: unknown;
  try {
    mod = await importFresh(file, plan.alias, options);
  } catch (e) {
    return error(`Cannot load module: ${firstLine((e as Error)?.message ?? String(e))}`, 'Fix the error above; imports of pi/oh-my-pi packages, typebox (@sinclair/typebox) and zod are provided by Tooldesk, other packages must be in the tool folder’s node_modules.', 'module-load-failed');
  }
  const factory = factoryOf(mod);
  if (!factory) return error('Tool must export a default function', 'Export a factory: export default (api) => ({name, description, parameters, execute}).', 'module-no-factory');
  const state: ModuleApiState = { registered: [], sessionHandlers: [], otherRegistrations: 0, logs: [], logCount: 0, secrets: [] };
  const api = createModuleApi(options.env, state);
  let returned: unknown;
  try {
    returned = await withTimeout(Promise.resolve(factory(api)), options.factoryTimeoutMs);
  } catch (e) {
    return error(`Tool factory threw: ${firstLine(e instanceof Error ? e.message : String(e))}`, 'Fix the factory so it returns its tools without throwing.', 'module-factory-threw');
  }
  const candidates: { raw: unknown; shape: ModuleToolShape }[] = [];
  if (Array.isArray(returned)) for (const raw of returned) candidates.push({ raw, shape: 'factory' });
  else if (returned !== undefined && returned !== null) candidates.push({ raw: returned, shape: 'factory' });
  // Some extensions register their tools in a session_start handler: a module that registered
  // nothing yet but calls registerTool somewhere gets that event once at load, so those tools are
  // found. Pure event extensions are left alone (their handlers may start watchers or servers).
  if (candidates.length === 0 && state.registered.length === 0 && plan.mentionsRegisterTool) await collectSessionStartTools(state, options.factoryTimeoutMs);
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
      hostContext: (toolCtx) => hostContext(options.env.workingDir, toolCtx),
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
 * jiti without a module cache: every import evaluates the module and what it imports afresh (a
 * shared instance keeps nothing between imports), so an edited tool, or a file it imports,
 * reloads fresh. `interopDefault` stays off: its Proxy says `__esModule` without listing
 * `default`, so `import ms from "ms"` (CommonJS) and `import path from "node:path"` came out
 * undefined.
 */
async function importFresh(file: string, alias: Record<string, string>, options: LoadOptions): Promise<unknown> {
  const base = { moduleCache: false, alias, interopDefault: false };
  if (options.transform) {
    const { transform } = options;
    const make = () => createJiti(file, { ...base, transform, fsCache: false });
    try {
      return await (options.jiti ? options.jiti(alias, make) : make()).import(file);
    } catch (error) {
      // esbuild could not transform it (e.g. top-level await): jiti's own transform may.
      if (!isTransformError(error)) throw error;
    }
  }
  return createJiti(file, { ...base, fsCache: options.scratchDir }).import(file);
}

/**
 * The host's jiti instances, one per alias map: making one reads jiti's settings from the
 * environment and builds its resolvers, about a tenth of a warm load.
 */
export function jitiPerAlias(): NonNullable<LoadOptions['jiti']> {
  const made = new Map<string, Jiti>();
  return (alias, make) => {
    const key = JSON.stringify(alias);
    let jiti = made.get(key);
    if (!jiti) made.set(key, (jiti = make()));
    return jiti;
  };
}

function isTransformError(error: unknown): boolean {
  return Array.isArray((error as { errors?: unknown })?.errors) && /Transform failed/.test((error as Error).message ?? '');
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

async function collectSessionStartTools(state: ModuleApiState, timeoutMs: number): Promise<void> {
  for (const handler of state.sessionHandlers) {
    try {
      await withTimeout(Promise.resolve(handler({ reason: 'start', sessionId: '' })), timeoutMs);
    } catch {
      // a handler that fails without a session is reported when a real session starts
    }
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

