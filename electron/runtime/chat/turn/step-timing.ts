// How fast a model step streamed: time to the first token, total time, and output tokens per
// second after the first token (when the provider reported usage).
import type { StepTiming, TokenUsage } from '../../../../shared/chat.ts';

export interface StepClock {
  startedAt: number;
  firstTokenAt?: number;
}

export function stepTiming(clock: StepClock, endedAt: number, usage?: TokenUsage): StepTiming {
  const timing: StepTiming = { totalMs: Math.max(0, endedAt - clock.startedAt) };
  if (clock.firstTokenAt === undefined) return timing;
  timing.firstTokenMs = Math.max(0, clock.firstTokenAt - clock.startedAt);
  const streamingMs = endedAt - clock.firstTokenAt;
  // One token, or a stream too short to time, says nothing about speed.
  if (usage && usage.outputTokens > 1 && streamingMs >= 20) timing.tokensPerSecond = Math.round(((usage.outputTokens - 1) / streamingMs) * 10_000) / 10;
  return timing;
}
