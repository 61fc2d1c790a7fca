// One scheduler per home: `<home>/schedules/scheduler.lock`, created exclusively (a hard link that
// fails when it exists), holding the owner's identity (pid, and where /proc exists its start time
// and the boot id: process-identity.ts) and control endpoint. A lock whose owner is gone — dead, a
// zombie, or its pid now given to an unrelated process — is stale and taken over; the take-over
// itself is serialised by a short-lived `scheduler.lock.takeover` folder (mkdir is atomic), so two
// processes that both found the stale lock do not both win. The owner checks at each tick that
// the lock is still its own (heldByMe) and stops scheduling when it is not.
import { linkSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from '../base/write-atomically.ts';
import { processAlive, processIdentity, type ProcessIdentity } from './process-identity.ts';
import { schedulesDir } from './run-store.ts';

export interface LockHolder extends ProcessIdentity {
  /** The owner's control endpoint (control-server.ts); absent while it starts. */
  port?: number;
  token?: string;
  since: number;
}

/** A take-over folder older than this was left by a process that died in the middle. */
const TAKEOVER_STALE_MS = 10_000;

export function lockFile(home: string): string {
  return join(schedulesDir(home), 'scheduler.lock');
}

/** The lock's holder when a live process holds it, else undefined. */
export function liveHolder(home: string): LockHolder | undefined {
  const holder = readHolder(lockFile(home));
  return holder && processAlive(holder) ? holder : undefined;
}

export class SchedulerLock {
  readonly #file: string;
  readonly #dir: string;
  #held = false;

  constructor(home: string) {
    this.#file = lockFile(home);
    this.#dir = schedulesDir(home);
  }

  get held(): boolean {
    return this.#held;
  }

  /** Takes the lock (a stale one included); false when a live process holds it. */
  acquire(endpoint: { port?: number; token?: string } = {}): boolean {
    if (this.#held) return this.heldByMe();
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    if (this.#create(endpoint)) return true;
    const holder = readHolder(this.#file);
    if (holder && processAlive(holder)) return false;
    // Stale (or unreadable: a crash between create and write): take it over, one process at a time.
    const takeover = `${this.#file}.takeover`;
    try {
      mkdirSync(takeover);
    } catch {
      try {
        if (Date.now() - statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) rmdirSync(takeover);
      } catch {
        // gone meanwhile
      }
      return false;
    }
    try {
      const again = readHolder(this.#file);
      if (again && processAlive(again)) return false;
      rmSync(this.#file, { force: true });
      return this.#create(endpoint);
    } finally {
      rmdirSync(takeover);
    }
  }

  /** Records how to reach the owner (after its control endpoint started). */
  setEndpoint(endpoint: { port: number; token: string }): void {
    if (!this.heldByMe()) return;
    // Renamed over the lock: a reader never sees a half-written file (it would look stale).
    writeAtomically(this.#file, JSON.stringify({ ...readHolder(this.#file)!, ...endpoint } satisfies LockHolder), 0o600);
  }

  /** The file still names this process (nobody removed or took it). */
  heldByMe(): boolean {
    if (!this.#held) return false;
    const holder = readHolder(this.#file);
    if (holder?.pid !== process.pid) this.#held = false;
    return this.#held;
  }

  release(): void {
    if (this.heldByMe()) {
      try {
        unlinkSync(this.#file);
      } catch {
        // already gone
      }
    }
    this.#held = false;
  }

  /** Written whole to a temporary file, then linked into place: link fails when the lock exists, and a reader never sees it empty. */
  #create(endpoint: { port?: number; token?: string }): boolean {
    const temp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ ...processIdentity(), since: Date.now(), ...endpoint } satisfies LockHolder), { mode: 0o600 });
    try {
      linkSync(temp, this.#file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      rmSync(temp, { force: true });
    }
    this.#held = true;
    return true;
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
    return typeof holder?.pid === 'number' ? holder : undefined;
  } catch {
    return undefined;
  }
}
