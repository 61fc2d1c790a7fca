// `tooldesk mcp enable|disable NAME`: switches the server's tool group (a running app starts or
// stops the server when it sees the change).
import { rmSync } from 'node:fs';
import { descriptionSnapshotFile, mcpStateDir, missingSecretsOf } from '../../runtime/host/mcp-client.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { parseArgs } from '../parse-args.ts';
import { serverEntries, writeServers } from './mcp-store.ts';

function switchCommand(enable: boolean): Command {
  const name = enable ? 'enable' : 'disable';
  return {
    name,
    summary: enable ? 'Switch a server\'s tool group on (it starts when used)' : 'Switch a server\'s tool group off (it stops)',
    usage: `Usage: tooldesk mcp ${name} NAME`,
    async run(argv, io) {
      const [server, ...extra] = parseArgs(argv).positionals;
      if (!server) throw new UsageError(`mcp ${name} needs the NAME of the server`);
      if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
      const { home, settings } = await openCliRuntime(io, { tools: false });
      try {
        const servers = serverEntries(settings);
        const entry = servers[server];
        if (!entry) {
          io.stderr.write(`tooldesk mcp ${name}: no server named "${server}" (see tooldesk mcp list)\n`);
          return 1;
        }
        // An entry switched off in the file it came from (`disabled: true`) is switched on too.
        if (enable && (entry.enabled === false || entry.disabled === true)) {
          const { enabled: _e, disabled: _d, ...rest } = entry;
          writeServers(settings, { ...servers, [server]: rest });
        }
        settings.set('groupDefaults', { ...settings.get().groupDefaults, [server]: enable });
        // Enabling is reviewing: the tool descriptions seen next become the ones to compare with.
        if (enable) rmSync(descriptionSnapshotFile(mcpStateDir(home), server), { force: true });
        io.stdout.write(`${enable ? 'enabled' : 'disabled'} MCP server "${server}"\n`);
        // Switched on all the same (the user may store the secret next); it cannot start without it.
        if (enable) for (const secret of missingSecretsOf(entry)) io.stderr.write(`tooldesk mcp enable: "${server}" is marked "secret missing": ${secret} is not stored yet; set it with \`tooldesk secrets set ${secret}\`\n`);
        return 0;
      } finally {
        settings.close();
      }
    },
  };
}

export const mcpEnableCommand = switchCommand(true);
export const mcpDisableCommand = switchCommand(false);
