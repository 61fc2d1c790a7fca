// What a server's sandbox lets it do, in one line for its Settings row.
import type { SandboxMode } from '../../../../../shared/settings.ts';
import { writableFolders } from './launchers.ts';
import type { McpServer } from './server-config.ts';

export function sandboxSummary(server: McpServer, globalMode: SandboxMode, sandboxed?: boolean): string {
  if (server.kind !== 'stdio') return 'remote server: no local process';
  if (globalMode === 'off') return 'no sandbox (switched off for every tool in Settings → Runtime)';
  if (server.sandbox === 'off') return 'no sandbox ("sandbox": "off" for this server): full access as your user';
  if (sandboxed === false) return 'no sandbox available on this machine: full access as your user';
  const { folders } = writableFolders(server);
  const writes = folders.length ? `writes only to ${folders.join(', ')}` : 'writes nowhere but a temp folder';
  return `sandboxed: network allowed, home read-only, ${writes}`;
}
