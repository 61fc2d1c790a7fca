// `tooldesk tools check`: every diagnostic with file:line:col and a hint; exit 1 on any error.
import type { Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';
import { formatDiagnostic, loadCliTools } from '../tools-load.ts';

export const toolsCheckCommand: Command = {
  name: 'check',
  summary: 'Report problems in tool files (file:line:col and a hint); exit 1 on errors',
  usage: [
    'Usage: tooldesk tools check [--root DIR]... [--json]',
    '',
    'Loads the tools like `tools list` and prints every diagnostic. Exit status 1 when any is an error.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['root'], booleans: ['json'] });
    const loaded = await loadCliTools(args, io);
    const sandbox = loaded.runtime.sandboxStatus();
    await loaded.close();
    const diagnostics = loaded.allDiagnostics;
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
    const toolCount = loaded.groups.reduce((n, g) => n + g.tools.length, 0);
    if (flag(args, 'json')) {
      io.stdout.write(`${JSON.stringify({ roots: loaded.roots, tools: toolCount, errors, warnings, diagnostics, sandbox }, null, 2)}\n`);
    } else {
      for (const d of diagnostics) io.stdout.write(`${formatDiagnostic(d)}\n`);
      io.stdout.write(`sandbox (${sandbox.mode}): ${sandbox.warning ? `WARNING: ${sandbox.warning}` : sandbox.detail}\n`);
      io.stdout.write(`${toolCount} tool(s) in ${loaded.groups.length} group(s); ${errors} error(s), ${warnings} warning(s)\n`);
    }
    return errors > 0 ? 1 : 0;
  },
};
