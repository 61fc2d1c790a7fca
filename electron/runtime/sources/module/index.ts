// Module tools (seed 003): TS/JS factories and `pi.registerTool` extensions (DESIGN.md,
// Compatibility). They load and run in a tool host, a sandboxed child process (host/main.ts);
// the app only ever sees their definitions and results. Files that run in the host: host/*,
// host-api.ts, tool-adapter.ts, imports.ts, entry-files.ts, transform.ts, shim/*.
import { dirname } from 'node:path';
import type { LoadResult, SourceLoader } from '../types.ts';
import { isDirectory, moduleGroupName } from './group-name.ts';
import { hostFor } from './host-pool.ts';
import { remoteTool } from './remote-tool.ts';
import type { ToolHost } from './tool-host.ts';

export { moduleGroupName } from './group-name.ts';
export { FACTORY_TIMEOUT_MS } from './tool-host.ts';

/** When every tool of a load is gone, its host drops the module instances (and may end). */
const unreachable = new FinalizationRegistry<{ host: ToolHost; loadId: number }>(({ host, loadId }) => {
  host.release(loadId);
  void host.stopIfUnused();
});

export const loadModuleFactories: SourceLoader = async (entries, ctx) => {
  const result: LoadResult = { groups: [], diagnostics: [] };
  const used = new Set<ToolHost>();
  for (const entry of entries) {
    const label = moduleGroupName(entry.path);
    const host = hostFor(ctx, entry.root, label);
    used.add(host);
    const loaded = await host.load(entry, label, isDirectory(entry.path) ? entry.path : dirname(entry.path));
    result.diagnostics.push(...loaded.diagnostics);
    if (loaded.tools.length === 0) continue;
    const anchor = {};
    unreachable.register(anchor, { host, loadId: loaded.record.loadId });
    result.groups.push({ name: label, tools: loaded.tools.map((info) => remoteTool(info, host, loaded.record, anchor)) });
  }
  // A root whose modules gave no tools needs no process.
  for (const host of used) await host.stopIfUnused();
  return result;
};
