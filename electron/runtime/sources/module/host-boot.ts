// Starting one module tool host (tool-host.ts): its launch, the process inside the sandbox, and
// the wait for its `ready`. Every line it sends before and after goes to the owner's checks; its
// end settles whatever was still waiting for it.
import { spawnManaged } from '../../runner/spawn-managed.ts';
import type { SandboxSpec } from '../../runner/types.ts';
import type { SourceContext } from '../types.ts';
import type { Failure, Incarnation } from './host-incarnation.ts';
import { hostLaunch } from './host-launch.ts';
import { lastLines, parse, readLines } from './host-messages.ts';
import { MAX_LINE_BYTES, type FromHost } from './host-protocol.ts';
import type { BridgeName } from './shim/bridge-files.ts';

/** Starting Node and the host script; generous because a busy machine starts slowly. */
const START_TIMEOUT_MS = 30_000;

export interface HostStart {
  /** The newest context with these settings (see ToolHost.useContext). */
  ctx: SourceContext;
  root: string;
  sandbox: SandboxSpec;
  /** Transpiled modules (written here by the app, read-only for the host). */
  transformCacheDir: string | null;
  bridges: Record<BridgeName, string>;
  bridgesDir: string;
  /** Folders the host reads code from (its script, node_modules), shown read-only in the sandbox. */
  readOnlyPaths: string[];
}

export interface BootHooks {
  /** The process exists (`inc`, not ready yet: requests written now wait in its stdin), or could not be made. */
  spawned(inc?: Incarnation): void;
  /** Every message but `ready`, unchecked. */
  message(inc: Incarnation, message: FromHost): void;
  kill(inc: Incarnation, why: string): void;
}

/** A running host, or why it could not start. Never throws. */
export async function bootHost(start: HostStart, hooks: BootHooks): Promise<Incarnation | Failure> {
  const { ctx, root, sandbox, transformCacheDir, bridges, bridgesDir, readOnlyPaths } = start;
  const launch = await hostLaunch(ctx.cacheDir);
  if ('error' in launch) return { failure: launch.error };
  const hostArgs = [...launch.args, JSON.stringify({ cacheDir: transformCacheDir, bridges })];
  const managed = await spawnManaged({
    command: launch.command,
    args: hostArgs,
    cwd: root,
    env: { ...ctx.env, ...launch.env },
    sandbox: { ...sandbox, readOnlyPaths: [...(sandbox.readOnlyPaths ?? []), ...launch.readOnlyPaths, ...readOnlyPaths, bridgesDir, ...(transformCacheDir ? [transformCacheDir] : [])] },
  });
  if ('error' in managed) {
    hooks.spawned();
    return { failure: `the module tool host could not start: ${managed.error}` };
  }
  const inc: Incarnation = { process: managed, pid: managed.pid, launch: { command: launch.command, args: hostArgs, cwd: root }, pending: new Map(), loaded: new Set(), execs: new Map(), dead: false, exitNote: '' };
  const ready = new Promise<number | Failure>((resolve) => {
    const timer = setTimeout(() => resolve({ failure: `the module tool host did not start within ${START_TIMEOUT_MS / 1000} s` }), START_TIMEOUT_MS);
    readLines(managed.stdout, (line) => {
      const message = parse(line);
      if (message?.t === 'ready') {
        clearTimeout(timer);
        resolve(typeof message.pid === 'number' ? message.pid : managed.pid);
      } else if (message) hooks.message(inc, message);
    }, () => hooks.kill(inc, `the module tool host sent a line longer than ${MAX_LINE_BYTES / 1024 / 1024} MB`));
    hooks.spawned(inc);
    void managed.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      inc.dead = true;
      const tail = lastLines(managed.stderrTail());
      const how = inc.exitNote || `the module tool host ended (${signal ? `signal ${signal}` : `exit code ${code}`})`;
      const failure = `${how}${tail ? `: ${tail}` : ''}`;
      resolve({ failure });
      for (const pending of inc.pending.values()) pending.resolve({ failure });
      inc.pending.clear();
      for (const exec of inc.execs.values()) exec.controller.abort();
    });
  });
  const pid = await ready;
  if (typeof pid !== 'number') {
    await managed.kill();
    return pid;
  }
  inc.pid = pid;
  return inc;
}
