// `tooldesk mcp install FILE.mcpb [--config KEY=VALUE]… [--yes] [--name NAME]`: a bundle shown
// (name, author, tools, prompts, platforms, privacy policies, signature), checked, configured
// (sensitive values to the keychain only), unpacked into TOOLDESK_HOME/mcpb/NAME and added as a
// server. Installing a newer version over an installed one updates it; `mcp remove` uninstalls.
import { existsSync } from 'node:fs';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { parseArgs } from '../parse-args.ts';
import { installBundle } from './mcp-install-bundle.ts';
import { keyValueOptions } from './mcp-store.ts';
import { installFromRegistry } from './mcp-registry.ts';

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
    'remotes as HTTP servers; secret variables and headers go to the keychain. An mcpb package',
    '(when there is no npm or PyPI one) is downloaded once into TOOLDESK_HOME/cache/mcpb, checked',
    'against the registry\'s fileSha256 (a mismatch installs nothing), then installed as a bundle.',
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
    try {
      return await installBundle(runtime, file, args, given, io);
    } finally {
      await runtime.close();
    }
  },
};
