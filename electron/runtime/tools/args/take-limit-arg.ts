// The per-call `limit` argument (seed 002): how many characters of output the model wants to see
// (0 or -1 = all). It belongs to the executor, so it is taken out of the arguments before
// validation and before the tool sees them, unless the tool's own schema declares a `limit`;
// then it is the tool's parameter and the executor leaves it (and truncation) alone.
import type { JsonSchema } from '../../../../shared/tools.ts';

export interface TakenLimit {
  args: Record<string, unknown>;
  /** Characters to keep; ≤ 0 = no truncation; undefined = the tool's or executor's default. */
  limit?: number;
  warning?: string;
}

export function takeLimitArg(args: Record<string, unknown>, schema: JsonSchema | undefined): TakenLimit {
  if (!('limit' in args) || declaresLimit(schema)) return { args };
  const { limit: raw, ...rest } = args;
  const limit = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof limit !== 'number' || !Number.isFinite(limit)) {
    return { args: rest, warning: `Ignored limit ${JSON.stringify(raw)}: it must be a number of characters (0 or -1 for all).` };
  }
  return { args: rest, limit: Math.trunc(limit) };
}

function declaresLimit(schema: JsonSchema | undefined): boolean {
  const properties = schema?.properties;
  return typeof properties === 'object' && properties !== null && 'limit' in properties;
}
