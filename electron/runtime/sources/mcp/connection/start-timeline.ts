// How a server's last start went, step by step (spawn → initialize → tools/list), for the row's
// "starting… Ns" and Inspect. Times are milliseconds since the start began; a step not reached
// is absent, so a start that hangs shows where.

import type { McpStartStep as StartStep, McpStartTimeline as StartTimelineView } from '../../../../../shared/mcp.ts';
import { startTimelineText } from '../../../../../shared/mcp-start-timeline.ts';

export type { StartStep, StartTimelineView };

export class StartTimeline {
  #since = 0;
  #steps: StartTimelineView['steps'] = [];
  #timeoutMs = 0;

  begin(timeoutMs: number, now = Date.now()): void {
    this.#since = now;
    this.#steps = [];
    this.#timeoutMs = timeoutMs;
  }

  mark(step: StartStep, now = Date.now()): void {
    if (this.#since === 0 || this.#steps.some((s) => s.step === step)) return;
    this.#steps.push({ step, ms: now - this.#since });
  }

  view(): StartTimelineView | undefined {
    return this.#since === 0 ? undefined : { since: this.#since, steps: [...this.#steps], timeoutMs: this.#timeoutMs };
  }
}

/** Why a start was given up, where it stood, and the setting that bounds it. */
export function startTimeoutText(server: string, timeoutMs: number, view: StartTimelineView): string {
  const reached = (step: StartStep) => view.steps.some((s) => s.step === step);
  const what = !reached('spawn') ? 'did not start its process' : !reached('initialize') ? 'did not answer initialize' : 'did not list its tools';
  return (
    `${what} within ${timeoutMs / 1000} s (${startTimelineText(view)}); a server that downloads or builds itself on first start may need longer: ` +
    `\`tooldesk config set mcpServers.${server}.startTimeoutMs 120000\` (or limits.mcpStartTimeoutMs for every server)`
  );
}

/** Our own bound on a start ran out. */
export class StartTimeoutError extends Error {
  constructor() {
    super('the start took longer than its bound');
    this.name = 'StartTimeoutError';
  }
}

/** Ours, or the SDK's request timeout (JSON-RPC -32001) on initialize / tools/list. */
export function isStartTimeout(error: unknown): boolean {
  if (error instanceof StartTimeoutError) return true;
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === -32001;
}
