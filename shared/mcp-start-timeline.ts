// A server's start, as the row, Inspect and `mcp list --status` say it. Pure: shared by both sides.
import type { McpStartStep, McpStartTimeline } from './mcp.ts';

const ORDER: McpStartStep[] = ['spawn', 'initialize', 'tools/list'];

/** "spawn 40 ms · initialize 310 ms · tools/list 325 ms" (or "… · tools/list not reached"). */
export function startTimelineText(view: McpStartTimeline): string {
  return ORDER.map((step) => {
    const reached = view.steps.find((s) => s.step === step);
    return reached ? `${step} ${reached.ms} ms` : `${step} not reached`;
  }).join(' · ');
}

/** "starting… 12 s (of 30 s)" while a start runs, counted from its beginning. */
export function startingText(view: McpStartTimeline | undefined, now: number): string {
  if (!view) return 'starting…';
  const seconds = Math.max(0, Math.floor((now - view.since) / 1000));
  return `starting… ${seconds} s (of ${Math.round(view.timeoutMs / 1000)} s)`;
}
