// `tooldesk tools check`: every diagnostic with file:line:col and a hint; exit 1 on any error.
import type { Runtime } from '../../runtime/create-runtime.ts';
import type { Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';
import { formatDiagnostic, loadCliTools } from '../tools-load.ts';

export const toolsCheckCommand: Command = {
  name: 'check',
  summary: 'Report problems in tool files (file:line:col and a hint); exit 1 on errors',
  usage: [
    'Usage: tooldesk tools check [--root DIR]... [--json] [--verbose]',
    '',
    'Loads the tools like `tools list` and prints every diagnostic. Exit status 1 when any is an error.',
    'Notes which installed modules a Python tool folder imports that its warm fork-server does not',
    'preload, and why; --verbose also lists, per fork-server, the modules it preloads.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['root'], booleans: ['json', 'verbose'] });
    const loaded = await loadCliTools(args, io);
    const sandbox = loaded.runtime.sandboxStatus();
    const preloads = await loaded.runtime.pythonPreloads(loaded.groups.flatMap((g) => g.tools)).finally(() => loaded.close());
    const diagnostics = loaded.allDiagnostics;
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
    const toolCount = loaded.groups.reduce((n, g) => n + g.tools.length, 0);
    if (flag(args, 'json')) {
      io.stdout.write(`${JSON.stringify({ roots: loaded.roots, tools: toolCount, errors, warnings, diagnostics, sandbox, preloads: preloads.reports }, null, 2)}\n`);
    } else {
      for (const d of diagnostics) io.stdout.write(`${formatDiagnostic(d)}\n`);
      for (const line of preloadLines(preloads, flag(args, 'verbose'))) io.stdout.write(`${line}\n`);
      io.stdout.write(`sandbox (${sandbox.mode}): ${sandbox.warning ? `WARNING: ${sandbox.warning}` : sandbox.detail}\n`);
      io.stdout.write(`${toolCount} tool(s) in ${loaded.groups.length} group(s); ${errors} error(s), ${warnings} warning(s)\n`);
    }
    return errors > 0 ? 1 : 0;
  },
};

/** Per warm Python fork-server: its preloads (verbose) and a note for each module it leaves out. */
function preloadLines(preloads: Awaited<ReturnType<Runtime['pythonPreloads']>>, verbose: boolean): string[] {
  const lines = preloads.note ? [`note: ${preloads.note}`] : [];
  for (const r of preloads.reports) {
    if (verbose) lines.push(`${r.folder}: warm Python runner: preloaded: ${r.preloaded.join(', ') || 'nothing'}`);
    for (const left of r.leftOut) lines.push(`${r.folder}: note: ${left.name} is not preloaded: ${left.why}`);
  }
  return lines;
}
