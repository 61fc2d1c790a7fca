// Builds the SourceContext every tool-format adapter receives, from the settings document.
import { homedir } from 'node:os';
import type { Settings } from '../../../shared/settings.ts';
import { appPaths } from '../paths.ts';
import { createRunner } from '../runner/create-runner.ts';
import type { ProtectedPaths, Runner, RunnerOptions } from '../runner/types.ts';
import { createWarmPythonRunner, warmPythonSupported } from '../runner/warm-python/warm-python-runner.ts';
import { WarmPythonPool } from '../runner/warm-python/warm-python-pool.ts';
import { ModuleHostPool } from './module/host-pool.ts';
import { protectedToolFolders, type ToolRoot } from './discovery/tool-roots.ts';
import { helperScript } from './process/helper-scripts.ts';
import type { SourceContext } from './types.ts';
import { tracedRunner } from './process/traced-runner.ts';

export interface SourceContextOptions {
  /** A ready runner (tests inject a counting one); else one is created from the settings. */
  runner?: Runner;
  /** Passed to createRunner (e.g. `resolveSecrets`) when no runner is given. */
  runnerOptions?: RunnerOptions;
  /** The roots actually loaded (`--root`, the CLI's project folders), protected on top of the settings' ones. */
  roots?: readonly ToolRoot[];
  /** Where a running tool's questions go (see SourceContext.interactions). */
  interactions?: SourceContext['interactions'];
  /** The long-lived helpers the tools run in (the runtime's own); absent: a new set, the caller's to close. */
  pools?: HelperPools;
}

/**
 * The processes that outlive a call: warm-Python fork-servers and module tool hosts. One set per
 * owner (createRuntime makes one and closes it with itself); nothing of it is module-level.
 */
export interface HelperPools {
  warmPython: WarmPythonPool;
  moduleHosts: ModuleHostPool;
}

/** A new, empty set of helper pools; close() ends every helper it started. */
export function helperPools(): HelperPools & { close(): Promise<void> } {
  const pools = { warmPython: new WarmPythonPool(), moduleHosts: new ModuleHostPool() };
  return { ...pools, close: async () => void (await Promise.all([pools.warmPython.close(), pools.moduleHosts.close()])) };
}

export function createSourceContext(settings: Settings, home: string, options: SourceContextOptions = {}): SourceContext {
  const runnerOptions = { maxOutputBytes: settings.limits.outputCapBytes, ...options.runnerOptions };
  const pools = options.pools ?? helperPools();
  const cold = options.runner ?? createRunner(runnerOptions);
  // Python runs from a warm fork-server where it can (specs carry a `python` hint); the rest cold.
  const warm = !options.runner && settings.runner?.warmPython !== false && warmPythonSupported();
  // Traced: each process lands in the Inspect record of the call that started it.
  const runner = tracedRunner(warm ? createWarmPythonRunner({ ...runnerOptions, pool: pools.warmPython, zygoteScript: helperScript.pythonZygote() }, cold) : cold);
  const workingDir = settings.workingDir ?? homedir();
  return {
    home,
    cacheDir: appPaths(home).cacheDir,
    runner,
    pythonPath: settings.pythonPath,
    workingDir,
    env: { ...settings.extraEnv },
    toolTimeoutMs: settings.limits.toolTimeoutMs,
    outputCapBytes: settings.limits.outputCapBytes,
    sandboxMode: settings.sandbox.mode,
    sandboxPerTool: { ...settings.sandbox.perTool },
    allowHomeWrite: settings.sandbox.allowHomeWrite,
    maxProcesses: settings.limits.maxProcesses,
    maxMemoryBytes: settings.limits.maxMemoryBytes,
    toolSourceMaxBytes: settings.limits.toolSourceMaxBytes,
    protect: protectedPathsFor(settings, home, options.roots),
    ...(options.interactions ? { interactions: options.interactions } : {}),
    moduleHosts: pools.moduleHosts,
  };
}

/** What no tool process (nor MCP server) may write: the app's folders and every tool root. */
export function protectedPathsFor(settings: Settings, home: string, roots?: readonly ToolRoot[]): ProtectedPaths {
  const paths = appPaths(home);
  return {
    appHome: paths.home,
    settingsFile: paths.settingsFile,
    sessionsDir: paths.sessionsDir,
    ...protectedToolFolders(settings, { home, cwd: settings.workingDir ?? homedir() }, roots),
  };
}
