// Schedules: prompts that run as chat turns with no one watching (settings key `schedules`), the
// record each run leaves, and the questions a run waits on (the Inbox). Payload types only.
import type { PermissionLevel } from './permissions.ts';

export const ON_ASK_CHOICES = ['pause', 'deny'] as const;
/** What a run does with a question nobody is there to answer: wait for the user, or refuse. */
export type OnAsk = (typeof ON_ASK_CHOICES)[number];

/** One schedule as the settings keep it. Exactly one of `every` and `cron`. */
export interface ScheduleConfig {
  /** Unique; letters, digits, `-`, `_`, `.`. */
  name: string;
  prompt: string;
  /** `30m`, `2h`, `1d` (s, m, h, d; at least 1 minute). */
  every?: string;
  /** Five fields (minute hour day-of-month month day-of-week), in `timezone`. */
  cron?: string;
  /** IANA time zone of `cron` (default: the system's when it was added). */
  timezone?: string;
  /** A tool set of settings.toolSets: only its tools are offered; its rules apply. */
  toolSet?: string;
  /** Only tightens what the user's settings allow (see the README's Schedules section). */
  permissions?: PermissionLevel;
  /** Default `pause`. */
  onAsk?: OnAsk;
  /** The folder its tools run in, absolute (default: the working-folder setting). */
  cwd?: string;
  providerId?: string;
  model?: string;
  /** Default true. */
  enabled?: boolean;
  /** When it was added (ms): the first `every` run comes one interval after. */
  createdAt?: number;
}

/** Bounds of one run (settings `scheduleLimits`). */
export interface ScheduleLimits {
  /** Model steps per run. */
  maxSteps: number;
  /** Tool calls per run. */
  maxToolCalls: number;
  /** Wall time per run, seconds (time spent waiting for the user does not count). */
  maxRunSeconds: number;
  /**
   * Retries of a run whose model failed (network, 5xx, rate limit, after the provider's own quick
   * retries) before any tool ran, before it is marked failed.
   */
  providerRetries: number;
  /** The first wait before such a retry, seconds; each next one doubles. */
  providerRetrySeconds: number;
}

export const DEFAULT_SCHEDULE_LIMITS: ScheduleLimits = { maxSteps: 20, maxToolCalls: 40, maxRunSeconds: 900, providerRetries: 2, providerRetrySeconds: 30 };

export const RUN_STATUSES = ['running', 'waiting', 'done', 'failed', 'denied'] as const;
/** `running` only while a process works on it; the others are the words the CLI prints. */
export type RunStatus = (typeof RUN_STATUSES)[number];

export type InboxKind = 'approval' | 'result-approval' | 'elicitation';

/** A question a paused run waits on. `id` stays the same across restarts. */
export interface InboxItem {
  id: string;
  runId: string;
  schedule: string;
  /** The schedule's chat. */
  sessionId: string;
  kind: InboxKind;
  callId: string;
  toolName: string;
  /** The resolved arguments (approvals), or what the server asks (elicitation). */
  args?: Record<string, unknown>;
  message?: string;
  askedAt: number;
  /** When the user was notified of it: once per question, never again after a restart. */
  notifiedAt?: number;
}

export interface ScheduleRun {
  id: string;
  schedule: string;
  sessionId: string;
  /** `timer`, `manual` (schedule run), `due` (run-due). */
  trigger: 'timer' | 'manual' | 'due';
  /** Started after its time had passed with nothing running (a missed slot). */
  late?: boolean;
  /** The slot it was for (ms), when started by time. */
  slot?: number;
  startedAt: number;
  endedAt?: number;
  status: RunStatus;
  /** Why it ended as it did (a bound hit, the model's error, a refused question). */
  reason?: string;
  /** Tool calls started. */
  calls: number;
  steps: number;
  /** The questions it waits on now (status `waiting`). */
  waitingOn: InboxItem[];
  /** Calls refused because nobody was there (`onAsk: deny`). */
  refused: number;
  /** Provider failures retried. */
  retries?: number;
  /** The folder its tools ran in (the schedule's cwd when it started); absent: the working-folder setting. */
  cwd?: string;
  /** The pid of the process running it (status `running`/`waiting`). */
  pid?: number;
  /** That process's start time and boot id, so a reused pid is not taken for it (Linux). */
  pidStart?: string;
  bootId?: string;
}

/** A schedule as Settings and `schedule list` show it. */
export interface ScheduleInfo {
  config: ScheduleConfig;
  /** Why the entry in the settings cannot run, when it cannot. */
  problem?: string;
  /** Next time it runs (ms), null when disabled, broken or waiting. */
  nextRunAt: number | null;
  lastRun?: Pick<ScheduleRun, 'id' | 'status' | 'startedAt' | 'endedAt' | 'late' | 'reason'>;
  sessionId?: string;
}

/** The user's answer to an Inbox question. */
export interface InboxAnswer {
  decision: 'approve' | 'reject';
  reason?: string;
  /** An elicitation form's answers. */
  content?: Record<string, string | number | boolean>;
}
