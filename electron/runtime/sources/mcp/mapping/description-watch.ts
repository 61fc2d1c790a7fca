// Tool descriptions are prompt text written by the server's author. The ones seen when the user
// enabled a server are remembered; a description that changes afterwards (a "rug pull") is
// flagged until the user enables the server again (`tooldesk mcp enable`), which re-reads them.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { stableHash } from '../../../tools/model-name.ts';

export function descriptionSnapshotFile(dir: string, server: string): string {
  const safe = server.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(dir, `${safe === server ? server : `${safe}-${stableHash(server).slice(0, 6)}`}.tools.json`);
}

const digest = (tool: McpTool) => createHash('sha256').update(`${tool.description ?? ''}\u0000${JSON.stringify(tool.inputSchema ?? {})}`).digest('hex').slice(0, 16);

/** Names of tools whose description or schema differ from the snapshot; the first call writes it. */
export function changedDescriptions(file: string, tools: McpTool[]): string[] {
  let snapshot: Record<string, string> | undefined;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    snapshot = undefined;
  }
  if (!snapshot) {
    try {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, JSON.stringify(Object.fromEntries(tools.map((t) => [t.name, digest(t)])), null, 1));
    } catch {
      // Without a place to remember them, changes cannot be flagged; the tools still work.
    }
    return [];
  }
  return tools.filter((t) => snapshot![t.name] !== undefined && snapshot![t.name] !== digest(t)).map((t) => t.name);
}
