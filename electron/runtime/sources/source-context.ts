// Builds the SourceContext every tool-format adapter receives, from the settings document.
import { homedir } from 'node:os';
import type { Settings } from '../../../shared/settings.ts';
import { appPaths } from '../paths.ts';
import { createRunner } from '../runner/create-runner.ts';
import type { Runner, RunnerOptions } from '../runner/types.ts';
import type { SourceContext } from './types.ts';
import { tracedRunner } from './process/traced-runner.ts';

export interface SourceContextOptions {
  /** A ready runner (tests inject a counting one); else one is created from the settings. */
  runner?: Runner;
  /** Passed to createRunner (e.g. `resolveSecrets`) when no runner is given. */
  runnerOptions?: RunnerOptions;
}

export function createSourceContext(settings: Settings, home: string, options: SourceContextOptions = {}): SourceContext {
  const runner = tracedRunner(options.runner ?? createRunner({ maxOutputBytes: settings.limits.outputCapBytes, ...options.runnerOptions }));
  return {
    home,
    cacheDir: appPaths(home).cacheDir,
    runner,
    pythonPath: settings.pythonPath,
    workingDir: settings.workingDir ?? homedir(),
    env: { ...settings.extraEnv },
    toolTimeoutMs: settings.limits.toolTimeoutMs,
    outputCapBytes: settings.limits.outputCapBytes,
    sandboxMode: settings.sandbox.mode,
    sandboxPerTool: { ...settings.sandbox.perTool },
    allowHomeWrite: settings.sandbox.allowHomeWrite,
    maxProcesses: settings.limits.maxProcesses,
    maxMemoryBytes: settings.limits.maxMemoryBytes,
  };
}
