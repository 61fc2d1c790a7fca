// The warm-Python fork-servers ("zygotes") of one owner, as an instance: createRuntime makes one
// and closes it with itself, so two runtimes in one process (tests, an `mcp serve` inside the app)
// never stop each other's helpers. A call acquires its zygote by key and releases it with the
// disposer it got (VS Code's ReferenceCollection shape); a zygote idle for `idleMs` with nothing
// holding it is retired by the sweeper, and the least recently used one makes room beyond
// `maxZygotes`. A retired zygote that still runs calls stops once they end. stop() ends them all.
import type { Disposer } from '../../base/emitter.ts';
import { toolWarnings } from '../run-warnings.ts';
import type { PreparedCommand } from '../sandbox.ts';
import { readySpare } from './spares.ts';
import type { Zygote } from './zygote.ts';

/** How to make (and re-check) the zygote of one key. */
export interface ZygoteRecipe {
  key: string;
  /** Prepares the zygote's sandbox now; `signature` changes when the zygote must be replaced. */
  prepare(): { signature: string; prepared: PreparedCommand };
  /** Starts the zygote in the prepared sandbox; undefined: this sandbox cannot serve warm runs. */
  start(prepared: PreparedCommand): Promise<Zygote | { error: string }> | undefined;
}

export interface ZygoteLimits {
  /** A zygote without calls for this long is stopped, ms. */
  idleMs: number;
  /** Zygotes alive at once. */
  maxZygotes: number;
  /** How often a zygote's sandbox is prepared again to see whether it changed, ms. */
  recheckMs: number;
}

/** A zygote lent to one call: its sandbox as last checked, and the disposer that gives it back. */
export interface ZygoteLease {
  zygote: Zygote;
  sandbox: Pick<PreparedCommand, 'sandboxed' | 'note' | 'warnings'>;
  release: Disposer;
}

interface Entry {
  key: string;
  zygote: Promise<Zygote | { error: string }>;
  /** The sandbox as prepared when last checked, and when. */
  signature: string;
  sandbox: ZygoteLease['sandbox'];
  checkedAt: number;
  failedAt?: number;
  idleMs: number;
  /** Calls holding it now (acquired, not yet released). */
  holders: number;
}

const FAILED_RETRY_MS = 30_000;

export class WarmPythonPool {
  /** Least recently used first. */
  readonly #entries = new Map<string, Entry>();
  readonly #retired = new Set<Promise<Zygote | { error: string }>>();
  #sweeper: NodeJS.Timeout | undefined;
  #sweepEveryMs = Infinity;
  /** Runs served warm and Python runs that went cold, since this pool was made. */
  readonly #counts = { warm: 0, cold: 0 };
  #stopped = false;

  /** Counts one Python run as served warm or cold. */
  count(kind: 'warm' | 'cold'): void {
    this.#counts[kind]++;
  }

  counts(): { warm: number; cold: number } {
    return { ...this.#counts };
  }

  /** The zygote of `recipe.key`, started or restarted as needed; undefined: run cold. */
  async acquire(recipe: ZygoteRecipe, limits: ZygoteLimits): Promise<ZygoteLease | undefined> {
    if (this.#stopped) return undefined;
    const now = Date.now();
    let entry = this.#entries.get(recipe.key);
    if (entry && now - entry.checkedAt > limits.recheckMs) {
      const { signature, prepared } = recipe.prepare();
      if (signature !== entry.signature) {
        this.#retire(entry);
        entry = undefined;
      } else {
        entry.checkedAt = now;
        entry.sandbox = sandboxInfo(prepared);
      }
    }
    if (entry) {
      const current = await entry.zygote;
      if ('error' in current) {
        if (now - (entry.failedAt ?? 0) < FAILED_RETRY_MS) return undefined;
        this.#entries.delete(recipe.key);
        entry = undefined;
      } else if (current.dead) {
        this.#entries.delete(recipe.key);
        entry = undefined;
      } else {
        // Most recently used last.
        this.#entries.delete(recipe.key);
        this.#entries.set(recipe.key, entry);
        return this.#lease(entry, current);
      }
    }
    const { signature, prepared } = recipe.prepare();
    const starting = recipe.start(prepared);
    if (!starting) return undefined;
    const fresh: Entry = { key: recipe.key, signature, sandbox: sandboxInfo(prepared), checkedAt: now, idleMs: limits.idleMs, zygote: starting, holders: 0 };
    this.#entries.set(recipe.key, fresh);
    this.#makeRoom(limits.maxZygotes);
    this.#startSweeper(fresh.idleMs);
    const started = await fresh.zygote;
    if ('error' in started) {
      fresh.failedAt = Date.now();
      return undefined;
    }
    return this.#lease(fresh, started);
  }

  /**
   * The zygotes alive now, with the pid of the spare each holds ready (a forked process waiting
   * for its call: no tool code has run in it). Tests and the benchmark count them.
   */
  async zygotes(): Promise<Array<{ hostPid: number; busy: number; spares: number[] }>> {
    const out: Array<{ hostPid: number; busy: number; spares: number[] }> = [];
    for (const entry of [...this.#entries.values()]) {
      const zygote = await entry.zygote;
      if ('error' in zygote || zygote.dead) continue;
      const spare = await readySpare(zygote);
      out.push({ hostPid: zygote.hostPid, busy: zygote.busy, spares: spare && !('error' in spare) ? [spare.hostPid] : [] });
    }
    return out;
  }

  /** Stops every zygote of this pool (its owner closes); a later acquire starts afresh. */
  async stop(): Promise<void> {
    const all = [...[...this.#entries.values()].map((e) => e.zygote), ...this.#retired];
    this.#entries.clear();
    this.#retired.clear();
    this.#stopSweeper();
    await Promise.all(
      all.map(async (z) => {
        const zygote = await z;
        if (!('error' in zygote)) await zygote.kill();
      }),
    );
  }

  /** Stops every zygote and refuses new ones (the runtime closed). */
  async close(): Promise<void> {
    this.#stopped = true;
    await this.stop();
  }

  #lease(entry: Entry, zygote: Zygote): ZygoteLease {
    entry.holders++;
    let released = false;
    return {
      zygote,
      sandbox: entry.sandbox,
      release: () => {
        if (released) return;
        released = true;
        entry.holders--;
      },
    };
  }

  #retire(entry: Entry): void {
    if (this.#entries.get(entry.key) === entry) this.#entries.delete(entry.key);
    this.#retired.add(entry.zygote);
  }

  /** Retires from the least recently used end (busy ones stop once their calls end). */
  #makeRoom(max: number): void {
    for (const entry of [...this.#entries.values()].slice(0, Math.max(0, this.#entries.size - max))) this.#retire(entry);
  }

  #startSweeper(idleMs: number): void {
    const every = Math.max(100, Math.min(idleMs / 4, 10_000));
    if (this.#sweeper && every >= this.#sweepEveryMs) return;
    clearInterval(this.#sweeper);
    this.#sweepEveryMs = every;
    this.#sweeper = setInterval(() => void this.#sweep(), every);
    this.#sweeper.unref();
  }

  #stopSweeper(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    this.#sweepEveryMs = Infinity;
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const entry of [...this.#entries.values()]) {
      const zygote = await entry.zygote;
      if ('error' in zygote) continue;
      if (zygote.dead || (entry.holders === 0 && zygote.busy === 0 && now - zygote.lastUsed > entry.idleMs)) this.#retire(entry);
    }
    for (const pending of [...this.#retired]) {
      const zygote = await pending;
      if ('error' in zygote || zygote.dead) this.#retired.delete(pending);
      else if (zygote.busy === 0) {
        this.#retired.delete(pending);
        await zygote.kill();
      }
    }
    if (this.#entries.size === 0 && this.#retired.size === 0) this.#stopSweeper();
  }
}

function sandboxInfo(prepared: PreparedCommand): ZygoteLease['sandbox'] {
  return { sandboxed: prepared.sandboxed, ...(prepared.note ? { note: prepared.note } : {}), ...(toolWarnings(prepared).length ? { warnings: toolWarnings(prepared) } : {}) };
}
