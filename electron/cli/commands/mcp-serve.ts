// `tooldesk mcp serve`: the user's tools for any MCP host, over stdio (default) or Streamable HTTP
// on 127.0.0.1 (`--http`). Calls go through the same ToolSession door as the app, with the same
// approvals. The server is the runtime's (createRuntime().mcpServer); this file parses and prints.
import type { McpServer } from '../../runtime/create-runtime.ts';
import type { Runtime } from '../../runtime/create-runtime.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, option, options, parseArgs } from '../parse-args.ts';
import { VERSION } from '../version.ts';
import { findToolSet } from '../../runtime/tools/rules/rule-book.ts';
import { absentSkillsWarning } from '../../runtime/tools/skill-scope.ts';
import { parsePort } from './serve.ts';

export const DEFAULT_MCP_PORT = 47113;

export const mcpServeCommand: Command = {
  name: 'serve',
  summary: 'Offer your tools to MCP hosts (stdio, or --http on 127.0.0.1)',
  usage: [
    'Usage: tooldesk mcp serve [--group G]... [--root DIR]...',
    '       tooldesk mcp serve --http [--port N] [--no-auth] [--show-token] [--rotate-token] [--group G]... [--root DIR]...',
    '',
    'Serves the tools of the groups enabled in Tooldesk over MCP. Calls run through the same executor',
    'as the app: validation, $VAR_REF, timeouts, truncation, sandbox, secrets and approvals. A tool',
    'whose policy asks is asked through the host (MCP elicitation); a host that cannot ask gets an',
    'error naming the setting that would allow it. Every decision is logged (`tooldesk audit`).',
    '',
    '  --group G       offer only group G (repeatable; still only when enabled in Tooldesk)',
    '  --toolset NAME  offer exactly the tool set NAME (`tooldesk toolset list`), with its rules and level',
    '  --root DIR      load tools from DIR instead of the configured roots (repeatable)',
    '  --http          serve Streamable HTTP on http://127.0.0.1:N/mcp instead of stdio',
    `  --port N        the HTTP port (default ${DEFAULT_MCP_PORT}; 0 = any free port)`,
    '  --no-auth       no bearer token (for hosts that cannot send headers); says so on start',
    '  --show-token    print the token and the host configuration again',
    '  --rotate-token  replace the token in the keychain with a new one',
    '',
    'Claude Desktop (stdio): {"mcpServers": {"tooldesk": {"command": "tooldesk", "args": ["mcp", "serve"]}}}',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['group', 'root', 'port', 'toolset'], booleans: ['http', 'no-auth', 'show-token', 'rotate-token'] });
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const http = flag(args, 'http');
    for (const name of ['port', 'no-auth', 'show-token', 'rotate-token']) {
      if (!http && args.flags.has(name)) throw new UsageError(`--${name} only applies with --http`);
    }
    if (flag(args, 'no-auth') && (flag(args, 'show-token') || flag(args, 'rotate-token'))) throw new UsageError('--no-auth excludes --show-token and --rotate-token');
    const port = parsePort(option(args, 'port'), DEFAULT_MCP_PORT);
    // stdout is the protocol on stdio: everything for people goes to stderr.
    const say = (text: string) => io.stderr.write(`${text}\n`);
    const toolSet = option(args, 'toolset');
    // Watched settings (toggles made in the app apply), every tool source with hot reload,
    // secrets for tool processes (and Agenvoy's key endpoint).
    const log = (message: string) => say(`tooldesk mcp serve: ${message}`);
    const runtime = await openCliRuntime(io, { watchSettings: true, log, tools: { args, watch: true, keyEndpoint: true } });
    const server = await runtime.mcpServer({
      transport: http ? 'http' : 'stdio',
      onlyGroups: options(args, 'group'),
      ...(toolSet ? { toolSet } : {}),
      serverInfo: { name: 'tooldesk', version: VERSION },
      log: (message) => say(`tooldesk mcp serve${message.startsWith('[') ? ' ' : ': '}${message}`),
    });
    if (toolSet && !findToolSet(server.settings(), toolSet)) {
      const known = (server.settings().toolSets ?? []).map((s) => s.name);
      await runtime.close();
      io.stderr.write(`tooldesk mcp serve: no tool set "${toolSet}"${known.length ? ` (there are: ${known.join(', ')})` : ''}. \`tooldesk toolset add NAME ITEM…\` makes one.
`);
      return 1;
    }
    const set = toolSet ? findToolSet(server.settings(), toolSet) : undefined;
    const absent = set?.skills?.length ? absentSkillsWarning(set, (await runtime.skills()).scope().ids()) : undefined;
    if (absent) say(`tooldesk mcp serve: warning: ${absent}`);
    // Said once the MCP servers starting are up (or past their bound), as a host's first list
    // sees them: a server's group and tools exist only once it has started.
    // Not waited for at the end: a host that leaves at once must not wait out a slow server's start.
    let serving = true;
    void server.ready().then(() => (serving ? describeOffer(runtime, server, options(args, 'group'), say) : undefined)).catch(() => undefined);
    try {
      return http ? await serveHttp(args, io, server, port, say) : await serveStdio(io, server);
    } finally {
      serving = false;
      await runtime.close();
      // A tool process that ignores its kill must not keep the server alive once we are done
      // (only as the `tooldesk` process itself: an embedding caller owns its own exit).
      if (io.stdin === process.stdin) setTimeout(() => process.exit(process.exitCode ?? 0), 3000).unref();
    }
  },
};

async function describeOffer(runtime: Runtime, server: McpServer, onlyGroups: string[], say: (text: string) => void): Promise<void> {
  const { tools, groups } = server.offer();
  const loaded = await runtime.tools();
  const roots = loaded.roots().map((r) => r.path);
  const enabled = groups.filter((g) => g.enabled).map((g) => g.name);
  for (const name of onlyGroups) {
    const group = groups.find((g) => g.name === name);
    if (!group) say(`tooldesk mcp serve: warning: --group ${name}: no such group in ${roots.join(', ')}`);
    else if (server.settings().groupDefaults[name] !== true) say(`tooldesk mcp serve: warning: group ${name} is disabled in Tooldesk; enable it with \`tooldesk tools enable ${name}\``);
  }
  const errors = loaded.source.diagnostics().filter((d) => d.severity === 'error').length;
  say(
    enabled.length === 0
      ? 'tooldesk mcp serve: no tool group is enabled, so no tools are offered. Enable one with `tooldesk tools enable GROUP` (it is picked up live).'
      : `tooldesk mcp serve: ${tools} tools from ${enabled.join(', ')}${errors ? ` (${errors} loading error(s): run \`tooldesk tools check\`)` : ''}`,
  );
}

async function serveStdio(io: CliIO, server: McpServer): Promise<number> {
  const served = server.serveStdio({ stdin: io.stdin, stdout: io.stdout });
  const stop = () => void served.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await served.done;
    return 0;
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}

async function serveHttp(
  args: ReturnType<typeof parseArgs>,
  io: CliIO,
  mcp: McpServer,
  port: number,
  say: (text: string) => void,
): Promise<number> {
  const noAuth = flag(args, 'no-auth');
  const token = noAuth ? undefined : await mcp.httpToken({ rotate: flag(args, 'rotate-token') });
  let server;
  try {
    server = await mcp.serveHttp({ port, token: token?.token });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    say(`tooldesk mcp serve: cannot listen on 127.0.0.1:${port}: ${code === 'EADDRINUSE' ? 'the port is in use (another `mcp serve`?); pick one with --port N' : (error as Error).message}`);
    return 1;
  }
  const out = (text: string) => io.stdout.write(`${text}\n`);
  out(`Tooldesk MCP server: ${server.url} (Streamable HTTP, 127.0.0.1 only)`);
  if (!token) {
    out('WARNING: authentication is OFF (--no-auth): any program on this machine can call your tools here. Approvals still apply.');
  } else {
    if (token.where !== 'keychain') out(`Note: no keychain (${token.problem}); this token works for this run only.`);
    if (token.created || flag(args, 'show-token')) {
      out(`Bearer token (${token.created ? 'new; ' : ''}kept in ${token.where === 'keychain' ? 'the keychain' : 'memory'}): ${token.token}`);
      out('Cursor (~/.cursor/mcp.json) or any host that takes "mcpServers" with a URL:');
      const configs = mcp.hostConfigs(server.url, token.token);
      out(configs.http);
      out('VS Code (.vscode/mcp.json):');
      out(configs.vscode);
    } else {
      out('Bearer token: the one in the keychain (print it again with --show-token; --rotate-token makes a new one).');
    }
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
