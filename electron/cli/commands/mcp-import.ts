// `tooldesk mcp import [FILE]`: servers from Claude Desktop, Cursor, LM Studio or VS Code configs
// (their usual places, or FILE). Shows what will be added; literal secrets go to the keychain.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { knownConfigFiles, planImport, type ConfigLocation } from '../../runtime/host/mcp-client.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';
import { serverEntries, storeSecrets, writeServers } from './mcp-store.ts';

export const mcpImportCommand: Command = {
  name: 'import',
  summary: 'Import servers from Claude Desktop, Cursor, LM Studio or VS Code',
  usage: [
    'Usage: tooldesk mcp import [FILE] [--dry-run]',
    '',
    'Reads FILE, or else every config found in the usual places: Claude Desktop\'s',
    'claude_desktop_config.json, Cursor\'s and LM Studio\'s mcp.json, VS Code\'s mcp.json',
    '(user and .vscode/ of this folder). Servers already configured here are skipped.',
    'Literal secrets in env/headers are stored in the keychain and replaced by ${secret:NAME}.',
    'Imported servers start disabled: switch one on with `tooldesk mcp enable NAME`.',
    '  --dry-run  show what would be added and change nothing',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['dry-run'] });
    const [file, ...extra] = args.positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const home = io.env.HOME ?? homedir();
    const locations: ConfigLocation[] = file ? [{ app: 'file', path: resolve(file) }] : knownConfigFiles(process.platform, home, io.env, process.cwd());
    const { settings } = await openCliRuntime(io, { tools: false });
    try {
      const servers = serverEntries(settings);
      const plan = planImport(locations, servers);
      if (file && plan.add.length === 0 && plan.skipped.length === 0 && plan.problems.length === 0) {
        io.stderr.write(`tooldesk mcp import: ${resolve(file)} does not exist\n`);
        return 1;
      }
      for (const problem of plan.problems) io.stderr.write(`tooldesk mcp import: ${problem}\n`);
      if (plan.add.length === 0 && plan.skipped.length === 0) {
        io.stdout.write(`No MCP configs found. Looked in:\n${locations.map((l) => `  ${l.app}: ${l.path}`).join('\n')}\n`);
        return plan.problems.length ? 1 : 0;
      }
      for (const server of plan.add) {
        const target = server.entry.url ? String(server.entry.url) : [server.entry.command, ...((server.entry.args as string[]) ?? [])].join(' ');
        io.stdout.write(`+ ${server.name}: ${target}   from ${server.from}\n`);
        for (const secret of server.secrets) io.stdout.write(`    secret ${secret.name} → keychain\n`);
      }
      for (const skip of plan.skipped) io.stdout.write(`- ${skip.name} skipped (${skip.reason})   from ${skip.from}\n`);
      if (flag(args, 'dry-run') || plan.add.length === 0) return 0;
      if (!(await storeSecrets(io, plan.add.flatMap((s) => s.secrets)))) return 1;
      writeServers(settings, { ...servers, ...Object.fromEntries(plan.add.map((s) => [s.name, s.entry])) });
      io.stdout.write(`imported ${plan.add.length} server${plan.add.length === 1 ? '' : 's'} (disabled until you enable them)\n`);
      return 0;
    } finally {
      settings.close();
    }
  },
};
