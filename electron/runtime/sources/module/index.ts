// Module tools (seed 003): TS/JS factories and `pi.registerTool` extensions (DESIGN.md,
// Compatibility). They load and run in a tool host, a sandboxed child process (host/main.ts);
// the app only ever sees their definitions and results. Files that run in the host: host/*,
// host-api.ts, tool-adapter.ts, imports.ts, entry-files.ts, transform.ts, shim/*.
import { dirname } from 'node:path';
import type { LoadResult, SourceEntry, SourceLoader } from '../types.ts';
import { isDirectory, moduleGroupName } from './group-name.ts';
import { remoteTool } from './remote-tool.ts';
import type { LoadOutcome, ToolHost } from './tool-host.ts';

export { moduleGroupName } from './group-name.ts';
export { FACTORY_TIMEOUT_MS } from './tool-host.ts';

/** When every tool of a load is gone, its host drops the module instances (and may end). */
const unreachable = new FinalizationRegistry<{ host: ToolHost; loadId: number }>(({ host, loadId }) => {
  host.release(loadId);
  void host.stopIfUnused();
});

export const loadModuleFactories: SourceLoader = async (entries, ctx) => {
  // Each host loads its own entries in order; different hosts (roots) load side by side.
  const batches = new Map<ToolHost, Array<{ index: number; entry: SourceEntry; label: string; toolDir: string }>>();
  entries.forEach((entry, index) => {
    // One stat per entry: 300 module tools are 300 of them before their host can start.
    const folder = isDirectory(entry.path);
    const label = moduleGroupName(entry.path, folder);
    const host = ctx.moduleHosts.acquire(ctx, entry.root, label);
    const batch = batches.get(host) ?? [];
    batch.push({ index, entry, label, toolDir: folder ? entry.path : dirname(entry.path) });
    batches.set(host, batch);
  });
  const outcomes = new Array<{ host: ToolHost; outcome: LoadOutcome }>(entries.length);
  await Promise.all(
    [...batches].map(async ([host, batch]) => {
      const loaded = await host.loadAll(batch);
      loaded.forEach((outcome, i) => (outcomes[batch[i]!.index] = { host, outcome }));
      // A root whose modules gave no tools needs no process.
      await host.stopIfUnused();
    }),
  );
  const result: LoadResult = { groups: [], diagnostics: [] };
  for (const { host, outcome } of outcomes) {
    result.diagnostics.push(...outcome.diagnostics);
    if (outcome.tools.length === 0) continue;
    const anchor = {};
    unreachable.register(anchor, { host, loadId: outcome.record.loadId });
    result.groups.push({ name: outcome.record.label, tools: outcome.tools.map((info) => remoteTool(info, host, outcome.record, anchor, ctx.workingDir)) });
  }
  return result;
};
