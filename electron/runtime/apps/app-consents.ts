// What the user allowed each server's apps to do (shown at all when the server is untrusted,
// permissions, links, messages to the chat), kept in TOOLDESK_HOME/mcp-app-consents.json. A file
// that does not parse counts as no consent (and is replaced on the next grant).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConsentKind } from '../../../shared/mcp-apps.ts';
import { writeFileAtomic } from '../sources/files/atomic-write.ts';

const KINDS: readonly AppConsentKind[] = ['show', 'permissions', 'links', 'messages'];
const MAX_SERVERS = 1000;

export interface AppConsents {
  of(server: string): AppConsentKind[];
  grant(server: string, kind: AppConsentKind): Promise<AppConsentKind[]>;
}

export function openAppConsents(home: string): AppConsents {
  const file = join(home, 'mcp-app-consents.json');
  const read = (): Record<string, AppConsentKind[]> => {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
      const out: Record<string, AppConsentKind[]> = Object.create(null);
      for (const [server, kinds] of Object.entries(parsed).slice(0, MAX_SERVERS)) {
        if (Array.isArray(kinds)) out[server] = KINDS.filter((k) => kinds.includes(k));
      }
      return out;
    } catch {
      return {};
    }
  };
  return {
    of: (server) => read()[server] ?? [],
    async grant(server, kind) {
      const all = read();
      const kinds = new Set(all[server] ?? []);
      kinds.add(kind);
      all[server] = KINDS.filter((k) => kinds.has(k));
      await writeFileAtomic(file, `${JSON.stringify(all, null, 2)}\n`);
      return all[server]!;
    },
  };
}
