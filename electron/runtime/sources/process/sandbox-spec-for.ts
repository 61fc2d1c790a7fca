// Builds the runner's sandbox spec for one tool from the source context's settings.
import type { SandboxSpec } from '../../runner/types.ts';
import { helperDirs } from './helper-scripts.ts';
import type { SourceContext } from '../types.ts';

/** `workDir`: the call's own folder (ToolContext.workingDir) when it has one. */
export function sandboxSpecFor(ctx: SourceContext, toolName: string, toolDir: string, network = true, workDir = ctx.workingDir): SandboxSpec {
  return {
    mode: ctx.sandboxPerTool?.[toolName] ?? ctx.sandboxMode ?? 'auto',
    toolDir,
    workDir,
    network,
    readOnlyPaths: helperDirs(),
    ...(ctx.allowHomeWrite ? { allowHomeWrite: true } : {}),
    ...(ctx.maxProcesses ? { maxProcesses: ctx.maxProcesses } : {}),
    ...(ctx.maxMemoryBytes ? { maxMemoryBytes: ctx.maxMemoryBytes } : {}),
    ...(ctx.protect ? { protect: ctx.protect } : {}),
  };
}

/**
 * The Node that runs script.js: this process's own binary — plain Node, or Electron's binary
 * told to behave as Node (so a packaged app needs no separate Node installed).
 */
export function nodeCommand(): { command: string; env: Record<string, string> } {
  return process.versions.electron ? { command: process.execPath, env: { ELECTRON_RUN_AS_NODE: '1' } } : { command: process.execPath, env: {} };
}
