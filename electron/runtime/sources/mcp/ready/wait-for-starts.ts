// Waits for the starts in flight of the switched-on MCP servers to end (ready or failed), so a
// host's first `tools/list` from `mcp serve` holds every tool that can be had, not only those of
// the servers that happened to be quick. Each server is waited for at most until its own start
// bound (`startTimeoutMs`, from when its start began) plus a little grace for the process to
// spawn; a server still starting then is left to announce its tools later (list_changed).
// Waiting starts nothing: a server that failed, or is not wanted, is not started again here.
import type { McpServerStateInfo } from '../types.ts';

/** What the wait reads of a manager (McpManager fits). */
export interface StartWatch {
  /** The servers enabled in settings whose group is switched on. */
  active(): Array<{ state(): McpServerStateInfo }>;
  /** Contract: the listener runs after any server's state changed; returns a disposer. */
  onChanged(listener: () => void): () => void;
}

/** A server that was not ready when the wait ended. */
export interface NotReady {
  name: string;
  /** `failed`: its start failed (why: `detail`); `starting`: still starting after its bound. */
  status: 'failed' | 'starting' | 'stopped';
  detail?: string;
}

export interface WaitForStartsOptions {
  /** Only these servers (the groups `mcp serve --group` offers); default every active one. */
  names?: readonly string[];
  /** Added to each server's bound: its spawn (and sandbox) happen before the bound's clock starts. */
  graceMs?: number;
  now?: () => number;
}

/** Resolves (never rejects) once no watched server is starting within its bound; lists those not ready. */
export function waitForStarts(watch: StartWatch, options: WaitForStartsOptions = {}): Promise<NotReady[]> {
  const grace = options.graceMs ?? 1000;
  const now = options.now ?? Date.now;
  const watched = () => watch.active().map((c) => c.state()).filter((s) => !options.names || options.names.includes(s.name));
  const deadline = (s: McpServerStateInfo) => (s.startTimeline ? s.startTimeline.since + s.startTimeline.timeoutMs + grace : now());
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      const waiting = watched().filter((s) => s.status === 'starting' && deadline(s) > now());
      clearTimeout(timer);
      if (waiting.length > 0) {
        // The next bound to run out, in case no state change comes before it.
        timer = setTimeout(check, Math.max(0, Math.min(...waiting.map(deadline)) - now()) + 5);
        return;
      }
      off();
      const notReady = watched().filter((s) => s.status !== 'ready');
      resolve(notReady.map((s) => ({ name: s.name, status: s.status as NotReady['status'], ...(s.detail ? { detail: s.detail } : {}) })));
    };
    const off = watch.onChanged(check);
    check();
  });
}

/** One line for the log: which servers were left out and why (a failure's first line). */
export function notReadyText(notReady: readonly NotReady[]): string {
  return notReady
    .map((s) => {
      if (s.status === 'starting') return `${s.name} (still starting; its tools are announced when it is ready)`;
      if (s.status === 'failed') return `${s.name} (${(s.detail ?? 'failed').split('\n')[0]})`;
      return `${s.name} (not started)`;
    })
    .join(', ');
}
