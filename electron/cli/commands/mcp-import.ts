// `tooldesk mcp import [FILE]`: servers from Claude Desktop, Cursor, LM Studio, VS Code, Windsurf
// or Zed configs (their usual places, or FILE). Shows every server with every keychain secret it
// will receive before anything is written; literal secrets go to the keychain (without one, the
// servers are still imported and each secret is named with the command that sets it).
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { answerQuestions, entryEnvRefs, isTrustedProjectFolder, knownConfigFiles, markSecretsMissing, planImport, type ConfigLocation, type ImportedServer } from '../../runtime/host/mcp-client.ts';
import { secretEnvName } from '../../../shared/secret-env-name.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, options, parseArgs } from '../parse-args.ts';
import { TerminalApprover } from '../terminal-approver.ts';
import { keyValueOptions, serverEntries, storeSecretsKeeping, writeServers } from './mcp-store.ts';

export const mcpImportCommand: Command = {
  name: 'import',
  summary: 'Import servers from Claude Desktop, Cursor, LM Studio, VS Code, Windsurf or Zed',
  usage: [
    'Usage: tooldesk mcp import [FILE] [--dry-run] [--skip-secrets] [--allow-secret NAME]... [--input ID=VALUE]...',
    '',
    'Reads FILE, or else every config found in the usual places: Claude Desktop\'s',
    'claude_desktop_config.json, Cursor\'s, LM Studio\'s and VS Code\'s mcp.json, Windsurf\'s',
    'mcp_config.json, Zed\'s settings.json (context_servers), and the .vscode/ and .cursor/',
    'configs of this folder once you trust it (`tooldesk tools trust DIR/.vscode`).',
    'Servers already configured here are skipped. Every keychain secret a server will receive',
    'is listed; literal secrets in env/headers are stored in the keychain and replaced by',
    '${secret:NAME}. A secret outside the server\'s own mcp.SERVER.* names is given only after',
    'your yes (asked here, or --allow-secret NAME). VS Code ${input:ID} values are asked here.',
    'Imported servers start switched off: switch one on with `tooldesk mcp enable NAME`.',
    '  --dry-run          show what would be added, secrets included, and change nothing',
    '  --skip-secrets     import without storing any secret (set them later with `tooldesk secrets set`)',
    '  --allow-secret N   give the keychain secret N to the server that refers to it (repeatable)',
    '  --input ID=VALUE   the answer to VS Code input ID (repeatable)',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['dry-run', 'skip-secrets'], values: ['allow-secret', 'input'] });
    const [file, ...extra] = args.positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const answers = keyValueOptions(args, 'input', 'ID=VALUE');
    const allowed = new Set(options(args, 'allow-secret'));
    const home = io.env.HOME ?? homedir();
    // A file the user names is theirs to import; a project's config found by looking needs trust.
    const locations: ConfigLocation[] = file ? [{ app: 'file', path: resolve(file) }] : knownConfigFiles(process.platform, home, io.env, process.cwd());
    const { settings } = await openCliRuntime(io, { tools: false });
    const approver = new TerminalApprover(io.stdin, io.stderr);
    try {
      const servers = serverEntries(settings);
      const plan = planImport(locations, servers, { home, isTrusted: (folder) => isTrustedProjectFolder(settings.get(), folder) });
      if (file && plan.add.length === 0 && plan.skipped.length === 0 && plan.problems.length === 0) {
        io.stderr.write(`tooldesk mcp import: ${resolve(file)} does not exist\n`);
        return 1;
      }
      for (const problem of plan.problems) io.stderr.write(`tooldesk mcp import: ${problem}\n`);
      if (plan.add.length === 0 && plan.skipped.length === 0) {
        io.stdout.write(`No MCP configs found. Looked in:\n${locations.map((l) => `  ${l.app}: ${l.path}`).join('\n')}\n`);
        return plan.problems.length ? 1 : 0;
      }
      for (const server of plan.add) io.stdout.write(describe(server));
      for (const skip of plan.skipped) io.stdout.write(`- ${skip.name} skipped (${skip.reason})   from ${skip.from}\n`);
      if (flag(args, 'dry-run') || plan.add.length === 0) return 0;

      const chosen: ImportedServer[] = [];
      for (const planned of plan.add) {
        const server = answerQuestions(planned, await askInputs(planned, answers, approver));
        const refused = await refusedSecrets(server, allowed, approver);
        if (refused.length > 0) {
          io.stdout.write(`- ${server.name} not imported: it would receive ${refused.map((r) => `keychain secret ${r}`).join(', ')}, not one of its own, and you did not allow it (--allow-secret ${refused[0]} allows it)\n`);
          continue;
        }
        chosen.push(server);
      }
      if (chosen.length === 0) return 1;
      const missing = await keepSecrets(io, chosen, flag(args, 'skip-secrets'));
      writeServers(settings, { ...servers, ...Object.fromEntries(chosen.map((s) => [s.name, markSecretsMissing(s.entry, missing.get(s.name) ?? [])])) });
      io.stdout.write(`imported ${chosen.length} server${chosen.length === 1 ? '' : 's'} (switched off until you enable them: tooldesk mcp enable NAME)\n`);
      return 0;
    } finally {
      approver.close();
      settings.close();
    }
  },
};

/** A server's line and every secret it will receive. */
function describe(server: ImportedServer): string {
  const target = server.entry.url ? String(server.entry.url) : [server.entry.command, ...((server.entry.args as string[]) ?? [])].join(' ');
  const lines = [`+ ${server.name}: ${target}   from ${server.from}`];
  const moved = new Set(server.secrets.map((s) => s.name));
  const asked = new Map(server.questions.map((q) => [q.secret, q]));
  for (const name of server.references) {
    if (moved.has(name)) lines.push(`    secret ${name} → keychain (its value was in the file)`);
    else if (asked.has(name)) lines.push(`    secret ${name} → keychain (VS Code input "${asked.get(name)!.id}": ${asked.get(name)!.description})`);
    else if (server.foreign.includes(name)) lines.push(`    receives keychain secret ${name} — not one of its own (mcp.${server.name}.*): asked before it is given`);
    else lines.push(`    receives keychain secret ${name}`);
  }
  for (const q of server.questions.filter((q) => !server.references.includes(q.secret))) lines.push(`    asks VS Code input "${q.id}" (${q.description}), written into its arguments`);
  const env = entryEnvRefs(server.entry);
  if (env.length) lines.push(`    reads ${env.map((n) => `$${n}`).join(', ')} from the environment when it starts (never written into the settings)`);
  for (const warning of server.warnings) lines.push(`    warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}

/** The answers to a server's VS Code inputs: given with --input, else asked (an empty answer leaves the secret to set later). */
async function askInputs(server: ImportedServer, given: Record<string, string>, approver: TerminalApprover): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  for (const q of server.questions) {
    if (Object.hasOwn(given, q.id)) answers[q.id] = given[q.id]!;
    else answers[q.id] = (await approver.question(`VS Code input "${q.id}" for ${server.name} — ${q.description}: `, { secret: q.password }))?.trim() ?? '';
  }
  return answers;
}

/** The foreign references the user did not say yes to (per name; end of input is no). */
async function refusedSecrets(server: ImportedServer, allowed: Set<string>, approver: TerminalApprover): Promise<string[]> {
  const refused: string[] = [];
  for (const name of server.foreign) {
    if (allowed.has(name)) continue;
    const answer = (await approver.question(`${server.name} refers to keychain secret ${name}, which is not one of its own (mcp.${server.name}.*). Give it to ${server.name}? [y/N] `))?.trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') refused.push(name);
  }
  return refused;
}

/**
 * Stores the servers' secrets; whatever cannot be stored is named with the command that sets it.
 * Returns, by server, the secrets to record as "secret missing": with --skip-secrets, those not
 * stored, and the VS Code inputs left unanswered.
 */
async function keepSecrets(io: CliIO, servers: ImportedServer[], skip: boolean): Promise<Map<string, string[]>> {
  const missing = new Map<string, string[]>();
  const mark = (server: string, name: string) => missing.set(server, [...(missing.get(server) ?? []), name]);
  const unset = servers.flatMap((s) => s.questions.filter((q) => s.references.includes(q.secret) && !s.secrets.some((x) => x.name === q.secret)).map((q) => ({ server: s.name, name: q.secret })));
  for (const u of unset) {
    io.stderr.write(`secret ${u.name} was not answered: set it with \`tooldesk secrets set ${u.name}\` before enabling ${u.server}\n`);
    if (skip) mark(u.server, u.name);
  }
  for (const s of servers) {
    const left = (s.entry.args as unknown[] | undefined)?.filter((a) => typeof a === 'string' && a.includes('${input:')) ?? [];
    if (left.length) io.stderr.write(`${s.name}'s arguments still hold ${left.join(' ')} (not answered): set them with \`tooldesk config set mcpServers.${s.name}.args '[…]'\` before enabling it\n`);
  }
  const wanted = servers.flatMap((s) => s.secrets.map((secret) => ({ server: s.name, ...secret })));
  if (skip) {
    for (const w of wanted) {
      io.stderr.write(`secret ${w.name} not stored (--skip-secrets): ${w.server} is marked "secret missing" until \`tooldesk secrets set ${w.name}\`\n`);
      mark(w.server, w.name);
    }
    return missing;
  }
  const { failed } = await storeSecretsKeeping(io, wanted);
  for (const f of failed) {
    const server = wanted.find((w) => w.name === f.name)!.server;
    mark(server, f.name);
    if (!f.noKeychain) {
      io.stderr.write(`secret ${f.name} could not be stored (${f.why}): ${server} is marked "secret missing" until \`tooldesk secrets set ${f.name}\`\n`);
      continue;
    }
    // `secrets set` fails too without a keychain: name what works here instead.
    io.stderr.write(
      `secret ${f.name} could not be stored (${f.why}): ${server} cannot start without it and is marked "secret missing". ` +
        `Export ${secretEnvName(f.name)}=… in the environment Tooldesk starts from (read when the server starts), ` +
        `or unlock a Secret Service (gnome-keyring, KeePassXC) and run \`tooldesk secrets set ${f.name}\`\n`,
    );
  }
  const blocked = [...new Set(failed.filter((f) => f.noKeychain).map((f) => wanted.find((w) => w.name === f.name)!.server))];
  if (blocked.length) io.stderr.write(`without a keychain these servers cannot start until their secrets are given as above: ${blocked.join(', ')}\n`);
  return missing;
}
