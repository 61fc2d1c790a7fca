// A module tool as the app sees it: its definition, and an execute that asks its tool host.
import { isAbsolute, relative } from 'node:path';
import type { Tool } from '../../tools/types.ts';
import type { HostToolInfo } from './host-protocol.ts';
import type { LoadRecord, ToolHost } from './tool-host.ts';

/**
 * `anchor` is held by every tool of one load: once none of them is reachable, the host is told
 * to drop that load's module instances (see index.ts).
 */
export function remoteTool(info: HostToolInfo, host: ToolHost, record: LoadRecord, anchor: object, workingDir: string): Tool {
  const entry = record.entry;
  const file = typeof info.file === 'string' && inside(info.file, entry.path) ? info.file : entry.path;
  const secrets = Array.isArray(info.secrets) ? info.secrets.filter((s): s is string => typeof s === 'string') : [];
  const tool: Tool = {
    definition: info.definition,
    source: { format: 'module', file, root: entry.root },
    // The host runs in the tools root (host-boot.ts); `ctx.cwd` and exec() use the working folder.
    relativeTo: [entry.root, workingDir],
    meta: typeof info.meta === 'object' && info.meta !== null && !Array.isArray(info.meta) ? info.meta : {},
    ...(secrets.length > 0 ? { secrets } : {}),
    execute: (args, ctx) => host.execute(record, info.key, args, ctx).finally(() => void anchor),
  };
  if (info.hasOnSession === true) tool.onSession = (event) => host.session(record, info.key, event);
  return tool;
}

function inside(file: string, parent: string): boolean {
  const rel = relative(parent, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
