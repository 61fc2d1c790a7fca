// The shape every tool-format adapter shares: given entries and a context, groups + diagnostics.
import type { SandboxMode } from '../../../shared/settings.ts';
import type { Diagnostic, ToolFormat } from '../../../shared/tools.ts';
import type { ProtectedPaths, Runner } from '../runner/types.ts';
import type { ToolGroup } from '../tools/types.ts';
import type { McpInteractions } from './mcp/types.ts';
import type { ModuleHostPool } from './module/host-pool.ts';

export interface SourceEntry {
  /** The tools root this entry was found in. */
  root: string;
  /** Absolute path of the file or folder. */
  path: string;
  format: Exclude<ToolFormat, 'builtin' | 'mcp'>;
}

export interface SourceContext {
  /** TOOLDESK_HOME. */
  home: string;
  /** Where caches go when a tools folder is read-only: TOOLDESK_HOME/cache. */
  cacheDir: string;
  runner: Runner;
  /** Python interpreter as configured (null = default); adapters resolve it once. */
  pythonPath: string | null;
  /** Working folder for script tools (seed 001 runs them in the app's cwd). */
  workingDir: string;
  /** Extra environment variables from settings. */
  env: Record<string, string>;
  /** Default timeout for module tools, ms. */
  toolTimeoutMs: number;
  outputCapBytes: number;
  /** Sandbox mode from settings (default `auto`); `sandboxPerTool` overrides it by tool name. */
  sandboxMode?: SandboxMode;
  sandboxPerTool?: Record<string, SandboxMode>;
  /** Seed 001 lets scripts write under $HOME; settings keep it off by default. */
  allowHomeWrite?: boolean;
  /** Sandbox bounds from settings.limits (process count, address space in bytes). */
  maxProcesses?: number;
  maxMemoryBytes?: number;
  /** A tool source larger than this gets a diagnostic and is not read (settings.limits.toolSourceMaxBytes). */
  toolSourceMaxBytes?: number;
  /**
   * What every tool's sandbox keeps read-only or hidden: this app's home, settings file and
   * sessions (the home it was started with, not the environment's), and every tool folder.
   */
  protect?: ProtectedPaths;
  /**
   * Asks the user while a tool runs (Open WebUI `__event_call__` confirmation/input use its
   * elicitation): the chat's card, or the terminal of `tools run`. Absent: nobody to ask.
   */
  interactions?: McpInteractions;
  /** The module tool hosts of the context's owner (the runtime's; a test's own). */
  moduleHosts: ModuleHostPool;
}

export interface LoadResult {
  groups: ToolGroup[];
  diagnostics: Diagnostic[];
}

/**
 * Loads all entries of one format. Contract: never throws; a broken entry becomes a diagnostic
 * and the others still load. Entries of one format are passed together so a loader can batch
 * work (all stale Python modules are parsed by one interpreter).
 */
export type SourceLoader = (entries: SourceEntry[], ctx: SourceContext) => Promise<LoadResult>;
