// How much an MCP App may say: messages per second, bytes per message and bytes per ten seconds.
// An app over any bound is stopped (its frame removed) and its block says which bound and why.
// Pure: the caller passes the clock.

export interface AppMessageLimits {
  /** Messages in any one-second window. */
  perSecond: number;
  /** Bytes of one message (its JSON). */
  maxMessageBytes: number;
  /** Bytes in any ten-second window. */
  bytesPerTenSeconds: number;
}

export const APP_MESSAGE_LIMITS: AppMessageLimits = { perSecond: 50, maxMessageBytes: 1024 * 1024, bytesPerTenSeconds: 8 * 1024 * 1024 };

export type BudgetVerdict = { ok: true } | { ok: false; reason: string };

export interface AppMessageBudget {
  /** Counts one message of `bytes` arriving at `now` (ms). */
  take(bytes: number, now: number): BudgetVerdict;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;

export function createMessageBudget(limits: AppMessageLimits = APP_MESSAGE_LIMITS): AppMessageBudget {
  // Times and sizes of the messages of the last ten seconds, oldest first.
  const times: number[] = [];
  const sizes: number[] = [];
  let windowBytes = 0;
  return {
    take(bytes, now) {
      if (bytes > limits.maxMessageBytes) return { ok: false, reason: `it sent a message of ${mb(bytes)} (at most ${mb(limits.maxMessageBytes)} each)` };
      while (times.length > 0 && times[0]! <= now - 10_000) {
        times.shift();
        windowBytes -= sizes.shift()!;
      }
      times.push(now);
      sizes.push(bytes);
      windowBytes += bytes;
      let lastSecond = 0;
      for (let i = times.length - 1; i >= 0 && times[i]! > now - 1000; i--) lastSecond++;
      if (lastSecond > limits.perSecond) return { ok: false, reason: `it sent more than ${limits.perSecond} messages in one second (it may be stuck in a loop)` };
      if (windowBytes > limits.bytesPerTenSeconds) return { ok: false, reason: `it sent more than ${mb(limits.bytesPerTenSeconds)} in ten seconds` };
      return { ok: true };
    },
  };
}

/** An inline app's height from its size-change notification: whole pixels within the bounds. */
export function boundedAppHeight(height: unknown, min = 48, max = 720): number | undefined {
  if (typeof height !== 'number' || !Number.isFinite(height)) return undefined;
  return Math.min(max, Math.max(min, Math.ceil(height)));
}

/** Apps shown at once in one chat; later ones wait behind a "Show app" button. */
export const MAX_APP_FRAMES_PER_CHAT = 8;
