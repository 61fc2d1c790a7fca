// Installing one `.mcpb` file, for `mcp install FILE.mcpb` and for a registry's mcpb package:
// the manifest shown, the platform checked, user_config asked (sensitive values to the keychain
// only), unpacked into TOOLDESK_HOME/mcpb/NAME and added as a server, switched on.
import { bundleEntry, bundleTarget, checkConfigValue, discardBundle, namedSecretsRefusal, openBundle, placeBundle, platformProblem, unpackBundle, type OpenedBundle } from '../../runtime/host/mcp-client.ts';
import type { Runtime } from '../../runtime/create-runtime.ts';
import { KeyringUnavailableError } from '../../runtime/store/secret-store.ts';
import { openCliSecrets } from '../cli-settings.ts';
import { UsageError, type CliIO } from '../command.ts';
import { flag, option, type ParsedArgs } from '../parse-args.ts';
import { TerminalApprover } from '../terminal-approver.ts';
import { serverEntries, writeServers } from './mcp-store.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Installs the bundle FILE with the command's options (`--config`, `--yes`, `--name`) into
 * `runtime`'s home. `from`: a registry install (the default local name, and the entry's
 * `registry` record). The runtime stays open: the caller closes it.
 */
export async function installBundle(runtime: Runtime, file: string, args: ParsedArgs, given: Record<string, string>, io: CliIO, from?: { name: string; registryName: string; version: string }): Promise<number> {
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
    const secrets = openCliSecrets(io);
    const refusal = await namedSecretsRefusal(`${file} (${m.name})`, m.userConfig.flatMap((f) => (f.secretRef ? [f.secretRef] : [])), (n) => secrets.exists(n));
    if (refusal) {
      io.stderr.write(`tooldesk mcp install: ${refusal}\n`);
      return 1;
    }
    const platform = platformProblem(m);
    if (platform) {
      io.stderr.write(`tooldesk mcp install: ${platform}; not installed\n`);
      return 1;
    }
    const name = option(args, 'name') ?? from?.name ?? m.name;
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
    // Unpacked only now, after the yes, streamed and held to the sizes its zip declared.
    try {
      await unpackBundle(bundle);
    } catch (error) {
      io.stderr.write(`tooldesk mcp install: ${m.name}: ${(error as Error).message}; nothing was installed\n`);
      return 1;
    }
    if (!(await storeSensitive(io, plan.secrets))) return 1;
    placeBundle(bundle, target);
    bundle = undefined;
    writeServers(settings, { ...servers, [name]: from ? { ...plan.entry, registry: { name: from.registryName, version: from.version } } : plan.entry });
    settings.set('groupDefaults', { ...settings.get().groupDefaults, [name]: true });
    io.stdout.write(`${update ? 'updated' : 'installed'} "${name}" (${m.name} ${m.version}) in ${target}; switched on\n`);
    return 0;
  } finally {
    if (bundle) discardBundle(bundle);
    approver.close();
  }
}

function showManifest({ manifest: m, signature }: OpenedBundle): string {
  const lines = [`${m.displayName ?? m.name} ${m.version}${m.author ? ` by ${m.author}` : ''}`];
  if (m.description) lines.push(`  ${m.description}`);
  lines.push(`  tools: ${m.tools.join(', ') || '(not listed)'}`);
  if (m.prompts.length) lines.push(`  prompts: ${m.prompts.join(', ')}`);
  lines.push(`  platforms: ${m.platforms?.join(', ') ?? 'any'}`);
  if (m.privacyPolicies.length) lines.push(`  privacy policies: ${m.privacyPolicies.join(', ')}`);
  lines.push(`  signature: ${signature.status === 'signed' ? `signed by ${signature.publisher ?? 'a trusted publisher'} (verified)` : signature.status === 'self-signed' ? 'self-signed (not from a trusted publisher)' : 'unsigned'}`);
  for (const f of m.userConfig) lines.push(`  setting ${f.key} (${f.type}${f.required ? ', required' : ''}${f.sensitive ? ', sensitive: kept in the keychain' : ''}): ${f.title}${f.secretRef ? ` (the bundle named your secret "${f.secretRef}": it is never read for it; type the value)` : ''}`);
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
