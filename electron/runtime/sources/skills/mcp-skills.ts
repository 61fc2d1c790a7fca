// Skills of the MCP servers Tooldesk is connected to: listed and their SKILL.md read with the
// SDK's SkillsClient (every file checked against the server's SHA-256 and size; a file that fails
// is never loaded), labelled with the server (`mcp:NAME`). They are listed beside the local ones
// and off by default; their files stay on the server (no folder here, so no script of theirs runs).
import type { Client } from '@modelcontextprotocol/client';
import { parseSkill } from './parse-skill.ts';
import type { SkillSource } from './skill-source.ts';
import type { Skill } from './skill-types.ts';

/** Contract: never throws; a server without the extension has no skills. */
export async function listServerSkills(client: Client, server: string, log: (message: string) => void = () => {}): Promise<Skill[]> {
  // Loaded with the first connected server, never at idle: the SDK and zod cost the app's start.
  const { SkillsClient } = await import('@modelcontextprotocol/client/ext/skills');
  const skills = new SkillsClient(client, { skipInvalid: true });
  if (!skills.supported) return [];
  try {
    const listing = await skills.list();
    for (const bad of listing.invalid) log(`MCP server ${server}: skill entry ${bad.uri ?? bad.index} refused: ${bad.reason}`);
    const out: Skill[] = [];
    for (const entry of listing.skills) {
      try {
        const manifest = await skills.read(entry);
        const folder = entry.uri.replace(/\/SKILL\.md$/, '').split('/').pop() ?? entry.frontmatter.name;
        const parsed = parseSkill(manifest.text ?? new TextDecoder().decode(manifest.bytes), entry.uri, folder);
        if (!parsed.skill) continue;
        const base = entry.uri.replace(/SKILL\.md$/, '');
        const files = entry.resources === 'dynamic' ? ['SKILL.md'] : entry.resources.map((r) => (r.uri.startsWith(base) ? r.uri.slice(base.length) : r.uri)).sort();
        const digests = entry.resources === 'dynamic' ? undefined : Object.fromEntries(entry.resources.map((r) => [r.uri.startsWith(base) ? r.uri.slice(base.length) : r.uri, r.digest.replace(/^sha256:/, '')]));
        out.push({ id: parsed.skill.frontMatter.name, ...parsed.skill, dir: '', file: entry.uri, origin: { kind: 'mcp', label: `mcp:${server}`, root: server }, files, ...(digests ? { digests } : {}) });
      } catch (error) {
        log(`MCP server ${server}: skill ${entry.uri} not loaded: ${(error as Error).message}`);
      }
    }
    return out;
  } catch (error) {
    log(`MCP server ${server}: skills/list failed: ${(error as Error).message}`);
    return [];
  }
}

/** What the sync needs of the MCP manager: its ready connections' clients. */
export interface McpClients {
  /** Names of the servers connected now, with their clients. */
  ready(): Promise<Array<{ name: string; client: Client }>>;
  onChanged(listener: () => void): () => void;
}

/** The ready servers of an MCP manager (structural: what syncMcpSkills needs of it). */
export function readyMcpClients(manager: {
  active(): Array<{ name: string; state(): { status: string }; ensureStarted(): Promise<Client | { error: string }> }>;
  onChanged(listener: () => void): () => void;
}): McpClients {
  return {
    async ready() {
      const ready = manager.active().filter((c) => c.state().status === 'ready');
      const clients = await Promise.all(ready.map(async (c) => ({ name: c.name, client: await c.ensureStarted() })));
      return clients.filter((c): c is { name: string; client: Client } => !('error' in c.client));
    },
    onChanged: (listener) => manager.onChanged(listener),
  };
}

/** Keeps `source`'s MCP skills in step with the connected servers. `sync()` resolves when listed. */
export function syncMcpSkills(mcp: McpClients, source: SkillSource, log: (message: string) => void): { sync(): Promise<void>; close(): void } {
  const listed = new Map<string, Client>();
  let running: Promise<void> = Promise.resolve();
  const sync = () => {
    running = running.then(async () => {
      const ready = await mcp.ready();
      for (const [name] of listed) if (!ready.some((r) => r.name === name)) {
        listed.delete(name);
        source.setRemote(name, []);
      }
      for (const { name, client } of ready) {
        if (listed.get(name) === client) continue;
        listed.set(name, client);
        source.setRemote(name, await listServerSkills(client, name, log));
      }
    });
    return running;
  };
  const off = mcp.onChanged(() => void sync());
  return { sync, close: off };
}
