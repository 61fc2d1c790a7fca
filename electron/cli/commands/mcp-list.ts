// `tooldesk mcp list`: the configured servers, their group switch and, with --status, their state
// after a start (ready with N tools, or failed with the reason and stderr tail).
import { missingSecretsOf, parseMcpServers, type McpServer, type McpServerStateInfo } from '../../runtime/host/mcp-client.ts';
import { startTimelineText } from '../../../shared/mcp-start-timeline.ts';
import { secretEnvName } from '../../../shared/secret-env-name.ts';
import { mcpOfferNote, mcpToolCountText, switchedOffTools } from '../../../shared/mcp-tool-count.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { openInBrowser } from '../serve/open-browser.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';

export const mcpListCommand: Command = {
  name: 'list',
  summary: 'List the servers (--status starts them and shows their state)',
  usage: [
    'Usage: tooldesk mcp list [--status] [--json]',
    '',
    '  --status  start every enabled server and show its state and tool count',
    '  --json    print the servers as JSON',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['status', 'json'] });
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const runtime = await openCliRuntime(io, { tools: false });
    const current = runtime.settings.get();
    const { servers, diagnostics } = parseMcpServers(current.mcpServers);
    let states: Array<McpServerStateInfo & { switchedOffTools: number }> = [];
    try {
      if (flag(args, 'status')) {
        const manager = await runtime.mcp({ openUrl: openInBrowser });
        await manager.startAll();
        states = manager.states().map((state) => ({ ...state, switchedOffTools: switchedOffTools(current.toolDefaults, state.name) }));
      }
    } finally {
      await runtime.close();
    }
    const rows = servers.map((server) => {
      const missing = missingSecretsOf(current.mcpServers[server.name] as unknown as Record<string, unknown> | undefined);
      return { ...describe(server), group: current.groupDefaults[server.name] === true ? 'on' : 'off', ...(missing.length ? { secretMissing: missing } : {}), ...(states.length ? { state: states.find((s) => s.name === server.name) } : {}) };
    });
    if (flag(args, 'json')) {
      io.stdout.write(`${JSON.stringify({ servers: rows, diagnostics }, null, 2)}\n`);
      return 0;
    }
    if (rows.length === 0 && diagnostics.length === 0) io.stdout.write('No MCP servers. Add one with `tooldesk mcp add` or `tooldesk mcp import`.\n');
    for (const row of rows) {
      const flags = [row.group === 'on' ? 'enabled' : 'disabled', row.secretMissing ? 'secret missing' : '', row.trust ? 'trusted' : '', row.sandbox ? `sandbox ${row.sandbox}` : ''].filter(Boolean).join(', ');
      io.stdout.write(`${row.name}  (${flags}) — ${row.transport}: ${row.target}\n`);
      for (const secret of row.secretMissing ?? []) {
        const variable = secretEnvName(secret);
        if (io.env[variable]) io.stdout.write(`  secret missing in the keychain: ${secret} — given by $${variable} in this environment\n`);
        else io.stdout.write(`  secret missing: ${secret} — set it with \`tooldesk secrets set ${secret}\`, then \`tooldesk mcp enable ${row.name}\` (no keychain here? export ${variable}=… before starting Tooldesk)\n`);
      }
      if (row.state) io.stdout.write(`  ${stateText(row.state).replace(/\n/g, '\n    ')}\n`);
      if (row.state?.startTimeline) io.stdout.write(`  start: ${startTimelineText(row.state.startTimeline)}\n`);
    }
    for (const d of diagnostics) io.stderr.write(`${d.file}: ${d.severity}: ${d.message}\n`);
    return diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
  },
};

function describe(server: McpServer) {
  if (server.kind === 'stdio') {
    return { name: server.name, transport: 'stdio', target: [server.command, ...server.args].join(' '), trust: server.trust, sandbox: server.sandbox, enabled: server.enabled };
  }
  return { name: server.name, transport: server.kind, target: server.url, trust: server.trust, sandbox: undefined, enabled: server.enabled };
}

function stateText(state: McpServerStateInfo & { switchedOffTools: number }): string {
  if (state.status === 'ready') {
    const note = mcpOfferNote(state.offered, 'cli');
    return `ready with ${mcpToolCountText(state)}${state.protocolVersion ? ` (protocol ${state.protocolVersion})` : ''}${note ? `; ${note}` : ''}${state.detail ? `; ${state.detail}` : ''}`;
  }
  if (state.status === 'failed') return `failed: ${state.detail ?? 'unknown reason'}`;
  return state.status;
}
