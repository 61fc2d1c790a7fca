// Aliased imports of host packages, typebox and zod resolve to tiny CommonJS bridge files that
// hand out values the tool host already loaded: one shared instance, nothing re-evaluated per tool.
import * as TypeBox from '@sinclair/typebox';
import * as zod from 'zod/v3';
import { writeShimBridges, type BridgeName } from './bridge-files.ts';
import { createPiShim } from './pi-shim.ts';

export type { BridgeName };

const GLOBAL_KEY = Symbol.for('tooldesk.moduleShim');

interface ShimGlobals {
  pi: Record<string, unknown>;
  typebox: Record<string, unknown>;
  zod: Record<string, unknown>;
}

export function shimValues(): ShimGlobals {
  const holder = globalThis as unknown as Record<symbol, ShimGlobals | undefined>;
  let values = holder[GLOBAL_KEY];
  if (!values) {
    const typebox: Record<string, unknown> = { ...TypeBox };
    typebox.default = typebox;
    const z: Record<string, unknown> = { ...zod };
    z.default = zod.z;
    values = { pi: createPiShim(), typebox, zod: z };
    // Marked as ES modules: a transpiled `import z from "zod"` then takes our `default` (zod's z),
    // as the real package gives, instead of the whole namespace.
    for (const value of Object.values(values)) Object.defineProperty(value, '__esModule', { value: true });
    holder[GLOBAL_KEY] = values;
  }
  return values;
}

/** Makes the shared values and writes the bridge files under `dir` (once per process). */
export function ensureShimBridges(dir: string): Record<BridgeName, string> {
  shimValues();
  return writeShimBridges(dir);
}
