// Builds the SourceContext every tool-format adapter receives, from the settings document.
import { homedir } from 'node:os';
import type { Settings } from '../../../shared/settings.ts';
import { appPaths } from '../paths.ts';
import { createRunner } from '../runner/create-runner.ts';
import type { Runner, RunnerOptions } from '../runner/types.ts';
import { protectedToolFolders, type ToolRoot } from './discovery/tool-roots.ts';
import type { SourceContext } from './types.ts';

export interface SourceContextOptions {
  /** A ready runner (tests inject a counting one); else one is created from the settings. */
  runner?: Runner;
  /** Passed to createRunner (e.g. `resolveSecrets`) when no runner is given. */
  runnerOptions?: RunnerOptions;
  /** The roots actually loaded (`--root`, the CLI's project folders), protected on top of the settings' ones. */
  roots?: readonly ToolRoot[];
}

export function createSourceContext(settings: Settings, home: string, options: SourceContextOptions = {}): SourceContext {
  const runner = options.runner ?? createRunner({ maxOutputBytes: settings.limits.outputCapBytes, ...options.runnerOptions });
  const paths = appPaths(home);
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
    protect: {
      appHome: paths.home,
      settingsFile: paths.settingsFile,
      sessionsDir: paths.sessionsDir,
      ...protectedToolFolders(settings, { home, cwd: workingDir }, options.roots),
    },
  };
}
