// What schedules leave on disk, under `<home>/schedules/`:
//   state.json          per schedule: its chat, the time up to which its slots are covered, and
//                       when it was first seen (the anchor of an `every` written by hand)
//   runs/<run id>.json  one record per run, rewritten whole (atomically) as it changes
// Only the process holding the scheduler lock writes (scheduler-lock.ts); anyone may read. A record
// that cannot be parsed (a disk that lied) is skipped with a warning, never fatal.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InboxItem, ScheduleRun } from '../../../shared/schedules.ts';
import { writeAtomically } from '../base/write-atomically.ts';
import { fileError } from '../base/file-error.ts';

export interface ScheduleState {
  sessionId?: string;
  /** Slots up to this time (ms) are run or deliberately skipped. */
  coveredUntil?: number;
  firstSeenAt?: number;
}

const RUN_ID = /^run-[a-z0-9]{6,32}$/;

export function schedulesDir(home: string): string {
  return join(home, 'schedules');
}

export class RunStore {
  readonly dir: string;
  readonly #runsDir: string;
  readonly #stateFile: string;
  readonly warnings: string[] = [];

  constructor(home: string) {
    this.dir = schedulesDir(home);
    this.#runsDir = join(this.dir, 'runs');
    this.#stateFile = join(this.dir, 'state.json');
  }

  state(): Record<string, ScheduleState> {
    try {
      const parsed = JSON.parse(readFileSync(this.#stateFile, 'utf8')) as unknown;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, ScheduleState>) : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#warn(`${this.#stateFile} could not be read (${(error as Error).message}); schedules start from now`);
      return {};
    }
  }

  /** Changes one schedule's state (read, merged, written whole). */
  updateState(name: string, change: Partial<ScheduleState> | null): void {
    const all = this.state();
    if (change === null) delete all[name];
    else all[name] = { ...all[name], ...change };
    this.#write(this.#stateFile, all);
  }

  saveRun(run: ScheduleRun): void {
    this.#write(join(this.#runsDir, `${run.id}.json`), run);
  }

  run(id: string): ScheduleRun | undefined {
    if (!RUN_ID.test(id)) return undefined;
    return this.#read(join(this.#runsDir, `${id}.json`));
  }

  /** Runs of one schedule (every schedule without a name), oldest first. */
  runs(schedule?: string): ScheduleRun[] {
    let files: string[];
    try {
      files = readdirSync(this.#runsDir).filter((f) => f.endsWith('.json'));
    } catch {
      return [];
    }
    const runs: ScheduleRun[] = [];
    for (const file of files) {
      const run = this.#read(join(this.#runsDir, file));
      if (run && (schedule === undefined || run.schedule === schedule)) runs.push(run);
    }
    return runs.sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id));
  }

  /** Every question a waiting run waits on, oldest first. */
  inbox(): InboxItem[] {
    return this.runs()
      .filter((run) => run.status === 'waiting')
      .flatMap((run) => run.waitingOn)
      .sort((a, b) => a.askedAt - b.askedAt);
  }

  #read(file: string): ScheduleRun | undefined {
    try {
      const run = JSON.parse(readFileSync(file, 'utf8')) as ScheduleRun;
      return run && typeof run.id === 'string' && Array.isArray(run.waitingOn) ? run : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#warn(`skipped ${file}: ${(error as Error).message}`);
      return undefined;
    }
  }

  #write(file: string, value: unknown): void {
    try {
      mkdirSync(this.#runsDir, { recursive: true, mode: 0o700 });
      writeAtomically(file, `${JSON.stringify(value, null, 2)}\n`, 0o600);
    } catch (error) {
      throw fileError('save the schedule record', file, error);
    }
  }

  #warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }
}
