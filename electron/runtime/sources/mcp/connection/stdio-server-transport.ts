// How a stdio server is started: its `${secret:…}` env resolved (and redacted from its log), its
// working folder, its writable folders (a launcher's cache made first), under the sandbox with
// network, and its stdout read as bounded JSON-RPC with everything else kept in its log.
import { mkdirSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/client';
import { tempFoldersNamed, writableFolders } from '../config/launchers.ts';
import { prefixed, resolveEnvRefs, unprefixed } from '../config/config-variables.ts';
import { serverCwd } from './server-roots.ts';
import { resolveSecretRefs } from '../config/secret-refs.ts';
import type { McpServer } from '../config/server-config.ts';
import type { ServerLog } from './server-log.ts';
import { ManagedStdioTransport } from './stdio-transport.ts';
import type { McpClientDeps } from '../types.ts';

type StdioServer = Extract<McpServer, { kind: 'stdio' }>;

/**
 * Contract: `onSpawned` hears whether each start really ran sandboxed, and where the sandbox's
 * search for secret files stopped (the server's sandbox note says that, not its log); never throws.
 */
export async function stdioServerTransport(
  server: StdioServer,
  deps: McpClientDeps,
  log: ServerLog,
  onSpawned: (sandboxed: boolean, secretScanNotes: string[]) => void,
): Promise<{ transport: Transport; writable: string[] } | { error: string }> {
  // `${env:NAME}` (VS Code and Cursor configs) from the app's environment, now, never stored.
  const given: Record<string, string> = { command: server.command, cwd: server.cwd ?? '', ...prefixed('arg.', server.args), ...prefixed('env.', server.env) };
  const fromEnv = resolveEnvRefs(given, deps.env ?? process.env, server.secretScope);
  if ('error' in fromEnv) return { error: `could not start: ${fromEnv.error}` };
  const started = fromEnv.value;
  const env = await resolveSecretRefs(unprefixed('env.', started), deps.resolveSecrets, server.secretScope);
  if ('error' in env) return { error: `could not start: ${env.error}` };
  log.redact(env.secrets);
  const command = started.command!;
  const args = server.args.map((_, i) => started[`arg.${i}`]!);
  const cwd = serverCwd(started.cwd || undefined, deps.workingDir);
  const { folders: writable, launcherCache } = writableFolders({ ...server, command, args });
  if (launcherCache && writable[0]) {
    try {
      mkdirSync(writable[0], { recursive: true });
    } catch {
      // The sandbox then says it cannot bind it; the start fails with that message.
    }
  }
  const transport = new ManagedStdioTransport(
    async () => {
      const child = await deps.spawn({
        command,
        args,
        cwd,
        env: env.values,
        sandbox: {
          ...deps.sandboxBase,
          mode: server.sandbox === 'off' ? 'off' : 'auto',
          toolDir: cwd,
          // The cwd is the user's working folder (often the home), not the server's code.
          toolDirIsWorkingFolder: true,
          network: true,
          allowHomeWrite: false,
          ...(writable.length ? { writableDirs: writable } : {}),
          readOnlyPaths: tempFoldersNamed(command, args),
        },
      });
      if (!('error' in child)) {
        onSpawned(child.sandboxed, child.secretScanNotes);
        for (const warning of child.warnings) log.add(`tooldesk: ${warning}`);
      }
      return child;
    },
    {
      ...(deps.maxMessageBytes ? { maxMessageBytes: deps.maxMessageBytes } : {}),
      onStderr: (text) => log.write(text),
      onNoise: (line) => log.add(`tooldesk: not JSON-RPC on stdout (ignored): ${line}`),
      onOversized: (bytes) => log.add(`tooldesk: dropped a ${bytes}-byte message (over the bound)`),
    },
  );
  return { transport, writable };
}
