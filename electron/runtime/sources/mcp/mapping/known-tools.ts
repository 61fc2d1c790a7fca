// The tools a server listed the last time it ran, kept so a switched-off server can be shown
// (marked off) without starting it. The file is the app's own record of what the server said:
// bounded when written and when read, and only ever shown, never used to run anything.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { stableHash } from '../../../tools/model-name.ts';

/** At most this much JSON is kept (and read back): tools past it are left out of the listing. */
export const MAX_KNOWN_TOOLS_BYTES = 2 * 1024 * 1024;

export interface KnownTools {
  tools: McpTool[];
  /** When the server listed them (ISO time). */
  listedAt: string;
}

export function knownToolsFile(dir: string, server: string): string {
  const safe = server.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(dir, `${safe === server ? server : `${safe}-${stableHash(server).slice(0, 6)}`}.known-tools.json`);
}

/** Keeps the fields a listing shows; stops adding tools once the bound is reached. */
export function rememberTools(file: string, tools: readonly McpTool[], now = new Date()): void {
  const kept: McpTool[] = [];
  let size = 0;
  for (const tool of tools) {
    const slim = { name: tool.name, ...(tool.title ? { title: tool.title } : {}), ...(tool.description ? { description: tool.description } : {}), inputSchema: tool.inputSchema, ...(tool.annotations ? { annotations: tool.annotations } : {}) } as McpTool;
    size += JSON.stringify(slim).length;
    if (size > MAX_KNOWN_TOOLS_BYTES) break;
    kept.push(slim);
  }
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify({ listedAt: now.toISOString(), tools: kept }));
  } catch {
    // Without it, a switched-off server is listed without tools; nothing else depends on it.
  }
}

/** The remembered tools, or undefined when there are none (never run, unreadable, too large, malformed). */
export function readKnownTools(file: string): KnownTools | undefined {
  try {
    if (statSync(file).size > MAX_KNOWN_TOOLS_BYTES + 4096) return undefined;
    const data = JSON.parse(readFileSync(file, 'utf8')) as { listedAt?: unknown; tools?: unknown };
    if (typeof data.listedAt !== 'string' || !Array.isArray(data.tools)) return undefined;
    const tools = data.tools.filter((t): t is McpTool => !!t && typeof t === 'object' && typeof (t as McpTool).name === 'string');
    return { tools, listedAt: data.listedAt };
  } catch {
    return undefined;
  }
}
