// `tooldesk mcp search TEXT` and `tooldesk mcp install NAME` from an MCP registry (v0.1 API):
// the base URL from --registry or settings `mcpRegistry.url`; answers cached, so a search works
// offline and says how old its answer is.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fetchRegistryBundle, latestServer, namedSecretsRefusal, registryBundleCache, registryBundlePackage, registryEntry, registryNamedSecrets, searchRegistry, type RegistryServer } from '../../runtime/host/mcp-client.ts';
import { openCliSecrets } from '../cli-settings.ts';
import { registryLocalName } from '../../../shared/mcp-install.ts';
import type { SettingsStore } from '../../runtime/store/settings-store.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, option, parseArgs, type ParsedArgs } from '../parse-args.ts';
import { TerminalApprover } from '../terminal-approver.ts';
import { installBundle } from './mcp-install-bundle.ts';
import { serverEntries, storeSecrets, writeServers } from './mcp-store.ts';

const registryCache = (home: string) => join(home, 'cache', 'mcp-registry');

function registryUrl(args: ParsedArgs, settings: SettingsStore): string {
  const url = option(args, 'registry') ?? settings.get().mcpRegistry?.url ?? undefined;
  if (!url) throw new UsageError('no registry: give --registry URL, or set one with `tooldesk config set mcpRegistry.url \'"https://…"\'`');
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--registry ${url}: must start with http:// or https://`);
  return url;
}

const age = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : ms < 7_200_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 3_600_000)} h`);
const kinds = (s: RegistryServer) => [...new Set([...s.packages.map((p) => p.registryType), ...(s.remotes.length ? ['remote'] : [])])].join(', ') || 'none';

export const mcpSearchCommand: Command = {
  name: 'search',
  summary: 'Search an MCP registry (name, title, version, kind of package)',
  usage: ['Usage: tooldesk mcp search TEXT [--registry URL] [--json]', '', 'The registry is --registry URL or settings mcpRegistry.url (its v0.1 API).'].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['registry'], booleans: ['json'] });
    const text = args.positionals.join(' ');
    const { settings, home } = await openCliRuntime(io, { tools: false });
    try {
      const found = await searchRegistry(registryUrl(args, settings), text, registryCache(home));
      if ('error' in found) {
        io.stderr.write(`tooldesk mcp search: ${found.error}\n`);
        return 1;
      }
      if (found.cachedAgeMs !== undefined) io.stderr.write(`tooldesk mcp search: the registry could not be reached; these results are from the cache, ${age(found.cachedAgeMs)} old\n`);
      if (flag(args, 'json')) io.stdout.write(`${JSON.stringify(found.value, null, 2)}\n`);
      else if (found.value.length === 0) io.stdout.write(`No servers match "${text}".\n`);
      else for (const s of found.value) io.stdout.write(`${s.name}  ${s.version}  [${kinds(s)}]${s.title ? `  ${s.title}` : ''}\n${s.description ? `  ${s.description}\n` : ''}`);
      return 0;
    } finally {
      settings.close();
    }
  },
};

/** `mcp install NAME`: the registry's latest version as a server (npm → npx, PyPI → uvx, mcpb → a checked bundle, remote → HTTP). */
export async function installFromRegistry(args: ParsedArgs, name: string, given: Record<string, string>, io: CliIO): Promise<number> {
  const runtime = await openCliRuntime(io, { tools: false });
  const { settings, home } = runtime;
  const approver = new TerminalApprover(io.stdin, io.stderr);
  try {
    const found = await latestServer(registryUrl(args, settings), name, registryCache(home));
    if ('error' in found) {
      io.stderr.write(`tooldesk mcp install: ${found.error}\n`);
      return 1;
    }
    const server = found.value;
    const local = option(args, 'name') ?? registryLocalName(server.name);
    io.stdout.write(`${server.name} ${server.version} [${kinds(server)}]${server.title ? ` — ${server.title}` : ''}\n${server.description ? `  ${server.description}\n` : ''}`);
    const secrets = openCliSecrets(io);
    const refusal = await namedSecretsRefusal(server.name, registryNamedSecrets(server), (n) => secrets.exists(n));
    if (refusal) {
      io.stderr.write(`tooldesk mcp install: ${refusal}\n`);
      return 1;
    }
    const bundlePackage = registryBundlePackage(server);
    if (bundlePackage) {
      const fetched = await fetchRegistryBundle(server, bundlePackage, registryBundleCache(home));
      if ('error' in fetched) {
        io.stderr.write(`tooldesk mcp install: ${fetched.error}\n`);
        return 1;
      }
      io.stdout.write(`  bundle ${bundlePackage.identifier} (SHA-256 checked${fetched.downloaded ? '' : ', from the cache'})\n`);
      return await installBundle(runtime, fetched.file, args, given, io, { name: local, registryName: server.name, version: server.version });
    }
    for (const p of server.packages) for (const v of p.environmentVariables) io.stdout.write(`  env ${v.name}${v.isRequired ? ' (required)' : ''}${v.isSecret ? ' (secret: kept in the keychain)' : ''}${v.description ? `: ${v.description}` : ''}\n`);
    for (const h of server.packages.length ? [] : (server.remotes[0]?.headers ?? [])) io.stdout.write(`  header ${h.name}${h.isRequired ? ' (required)' : ''}${h.isSecret ? ' (secret: kept in the keychain)' : ''}${h.description ? `: ${h.description}` : ''}\n`);
    const servers = serverEntries(settings);
    if (servers[local]) {
      io.stderr.write(`tooldesk mcp install: a server named "${local}" already exists; choose another name with --name NAME\n`);
      return 1;
    }
    const values = { ...given };
    const asked = [...server.packages.flatMap((p) => p.environmentVariables), ...(server.packages.length ? [] : (server.remotes[0]?.headers ?? []))];
    for (const v of asked.filter((v) => v.isRequired && values[v.name] === undefined && !('default' in v && v.default !== undefined))) {
      if (flag(args, 'yes')) break;
      const line = await approver.question(`${v.name}${v.description ? ` — ${v.description}` : ''}: `, { secret: v.isSecret });
      if (line?.trim()) values[v.name] = line.trim();
    }
    const plan = registryEntry(server, local, values, (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0);
    if ('error' in plan) {
      io.stderr.write(`tooldesk mcp install: ${plan.error}\n`);
      return 1;
    }
    if (plan.missing.length) {
      io.stderr.write(`tooldesk mcp install: ${server.name} needs ${plan.missing.join(', ')}: give ${plan.missing.map((m) => `--config ${m}=VALUE`).join(' ')}\n`);
      return 1;
    }
    if (!flag(args, 'yes')) {
      const answer = (await approver.question(`Install ${server.name} ${server.version} as "${local}" and switch it on? [y/N] `))?.trim().toLowerCase();
      if (answer !== 'y' && answer !== 'yes') {
        io.stdout.write('not installed\n');
        return 1;
      }
    }
    if (!(await storeSecrets(io, plan.secrets))) return 1;
    writeServers(settings, { ...servers, [local]: plan.entry });
    settings.set('groupDefaults', { ...settings.get().groupDefaults, [local]: true });
    io.stdout.write(`installed "${local}" (${server.name} ${server.version}); switched on\n`);
    return 0;
  } finally {
    approver.close();
    await runtime.close();
  }
}
