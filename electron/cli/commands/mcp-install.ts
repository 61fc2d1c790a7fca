// `tooldesk mcp install FILE.mcpb [--config KEY=VALUE]… [--yes] [--name NAME]`: a bundle shown
// (name, author, tools, prompts, platforms, privacy policies, signature), checked, configured
// (sensitive values to the keychain only), unpacked into TOOLDESK_HOME/mcpb/NAME and added as a
// server. Installing a newer version over an installed one updates it; `mcp remove` uninstalls.
import { bundleEntry, bundleTarget, checkConfigValue, discardBundle, openBundle, placeBundle, platformProblem, type OpenedBundle } from '../../runtime/host/mcp-client.ts';
import { KeyringUnavailableError } from '../../runtime/store/secret-store.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { openCliSecrets } from '../cli-settings.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, option, parseArgs } from '../parse-args.ts';
import { TerminalApprover } from '../terminal-approver.ts';
import { keyValueOptions, serverEntries, writeServers } from './mcp-store.ts';
import { installFromRegistry } from './mcp-registry.ts';
import { existsSync } from 'node:fs';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const mcpInstallCommand: Command = {
  name: 'install',
  summary: 'Install an MCP bundle (.mcpb): shown, checked, configured, switched on',
  usage: [
    'Usage: tooldesk mcp install FILE.mcpb [--config KEY=VALUE]... [--yes] [--name NAME]',
    '       tooldesk mcp install NAME [--registry URL] [--config KEY=VALUE]... [--yes] [--name NAME]',
    '',
    'Shows the bundle (name, author, tools, prompts, platforms, privacy policies, signature),',
    'refuses one made for another platform, asks its settings (user_config) that --config did',
    'not give, keeps sensitive ones in the keychain only, unpacks it into TOOLDESK_HOME/mcpb/NAME',
    'and adds it as a server, switched on after your yes (or --yes). Folders it is given become',
    'its roots and writable folders. A newer version installed over it updates it.',
    'NAME (not a file): the latest version from the registry (--registry URL or settings',
    'mcpRegistry.url): npm packages run as npx -y PKG@VERSION, PyPI as uvx PKG==VERSION,',
    'remotes as HTTP servers; secret variables and headers go to the keychain.',
    '  --config KEY=VALUE  a user_config value (repeatable)',
    '  --yes               install without asking; missing required values are an error',
    '  --name NAME         the local name (default: the manifest\'s name, or the last part of the registry name)',
    '  --registry URL      the registry for NAME (default: settings mcpRegistry.url)',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['config', 'name', 'registry'], booleans: ['yes'] });
    const [file, ...extra] = args.positionals;
    if (!file) throw new UsageError('mcp install needs a FILE.mcpb or the NAME of a server in the registry');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const given = keyValueOptions(args, 'config', 'KEY=VALUE');
    // Not a file: a server's name in the registry.
    if (!existsSync(file) && !file.endsWith('.mcpb')) return installFromRegistry(args, file, given, io);
    const runtime = await openCliRuntime(io, { tools: false });
    const { settings, home } = runtime;
    const approver = new TerminalApprover(io.stdin, io.stderr);
    let bundle: OpenedBundle | undefined;
    try {
      const opened = await openBundle(file, home);
      if ('error' in opened) {
        io.stderr.write(`tooldesk mcp install: ${opened.error}\n`);
        return 1;
      }
      bundle = opened;
      const m = bundle.manifest;
      io.stdout.write(showManifest(bundle));
      const platform = platformProblem(m);
      if (platform) {
        io.stderr.write(`tooldesk mcp install: ${platform}; not installed\n`);
        return 1;
      }
      const name = option(args, 'name') ?? m.name;
      if (!NAME.test(name)) throw new UsageError(`"${name}" cannot be a server name: use letters, digits, "_", "-" or "." (--name NAME)`);
      const servers = serverEntries(settings);
      const existing = servers[name];
      const update = existing && (existing.bundle as { name?: string } | undefined)?.name === m.name;
      if (existing && !update) {
        io.stderr.write(`tooldesk mcp install: a server named "${name}" already exists; choose another name with --name NAME\n`);
        return 1;
      }
      const unknown = Object.keys(given).filter((k) => !m.userConfig.some((f) => f.key === k));
      if (unknown.length) throw new UsageError(`--config ${unknown[0]}: the bundle has no setting "${unknown[0]}" (its settings: ${m.userConfig.map((f) => f.key).join(', ') || 'none'})`);
      const values: Record<string, string | number | boolean> = {};
      for (const field of m.userConfig) {
        let text: string | undefined = given[field.key];
        if (text === undefined && !flag(args, 'yes') && (field.required || field.default === undefined)) {
          const line = await approver.question(`${field.title}${field.description ? ` — ${field.description}` : ''} (${field.type}${field.required ? ', required' : ''}): `, { secret: field.sensitive });
          text = line?.trim() || undefined;
        }
        if (text === undefined) continue;
        const checked = checkConfigValue(field, text);
        if ('error' in checked) throw new UsageError(`--config ${checked.error}`);
        values[field.key] = checked.value;
      }
      const target = bundleTarget(home, name);
      const plan = await bundleEntry(bundle, name, target, values);
      if ('error' in plan) {
        io.stderr.write(`tooldesk mcp install: ${m.name}: ${plan.error}\n`);
        return 1;
      }
      if (!flag(args, 'yes')) {
        const answer = (await approver.question(`${update ? 'Update' : 'Install'} ${m.name} ${m.version} as "${name}" and switch it on? [y/N] `))?.trim().toLowerCase();
        if (answer !== 'y' && answer !== 'yes') {
          io.stdout.write('not installed\n');
          return 1;
        }
      }
      if (!(await storeSensitive(io, plan.secrets))) return 1;
      placeBundle(bundle, target);
      bundle = undefined;
      writeServers(settings, { ...servers, [name]: plan.entry });
      settings.set('groupDefaults', { ...settings.get().groupDefaults, [name]: true });
      io.stdout.write(`${update ? 'updated' : 'installed'} "${name}" (${m.name} ${m.version}) in ${target}; switched on\n`);
      return 0;
    } finally {
      if (bundle) discardBundle(bundle);
      approver.close();
      await runtime.close();
    }
  },
};

function showManifest({ manifest: m, signature }: OpenedBundle): string {
  const lines = [`${m.displayName ?? m.name} ${m.version}${m.author ? ` by ${m.author}` : ''}`];
  if (m.description) lines.push(`  ${m.description}`);
  lines.push(`  tools: ${m.tools.join(', ') || '(not listed)'}`);
  if (m.prompts.length) lines.push(`  prompts: ${m.prompts.join(', ')}`);
  lines.push(`  platforms: ${m.platforms?.join(', ') ?? 'any'}`);
  if (m.privacyPolicies.length) lines.push(`  privacy policies: ${m.privacyPolicies.join(', ')}`);
  lines.push(`  signature: ${signature.status === 'signed' ? `signed by ${signature.publisher ?? 'a trusted publisher'} (verified)` : signature.status === 'self-signed' ? 'self-signed (not from a trusted publisher)' : 'unsigned'}`);
  for (const f of m.userConfig) lines.push(`  setting ${f.key} (${f.type}${f.required ? ', required' : ''}${f.sensitive ? ', sensitive: kept in the keychain' : ''}): ${f.title}`);
  return `${lines.join('\n')}\n`;
}

/** Sensitive values go to the keychain only: without one, nothing is installed. */
async function storeSensitive(io: CliIO, secrets: Array<{ name: string; value: string }>): Promise<boolean> {
  const store = openCliSecrets(io);
  try {
    for (const s of secrets) await store.set(s.name, s.value);
    for (const s of secrets) io.stderr.write(`stored ${s.name} in the keychain\n`);
    return true;
  } catch (error) {
    const why = error instanceof KeyringUnavailableError ? 'no keychain on this machine' : (error as Error).message;
    io.stderr.write(`tooldesk mcp install: a sensitive setting is kept in the keychain only, which is not available (${why}); nothing was installed\n`);
    return false;
  }
}
