// `tooldesk tools new <format> <name>`: scaffolds a tool from resources/templates/<format>/ into
// a tools root (default: the first configured root, else TOOLDESK_HOME/tools).
import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { parseArgs } from '../parse-args.ts';
import { AuthoringError, loadedToolFile, newTool } from '../../runtime/host/services/scaffold-tool.ts';
import { NEW_TOOL_FORMATS, newToolNameProblem, type NewToolFormat } from '../../../shared/new-tool-formats.ts';

const ALIASES: Record<string, NewToolFormat> = {
  script: 'script-py',
  'script.py': 'script-py',
  'script.js': 'script-js',
  astrion: 'three-layer',
  module: 'module-ts',
  ts: 'module-ts',
  js: 'module-js',
  py: 'python',
  openwebui: 'open-webui',
  owui: 'open-webui',
  ps1: 'powershell',
};

export const toolsNewCommand: Command = {
  name: 'new',
  summary: `Create a tool from a template (${NEW_TOOL_FORMATS.join(', ')})`,
  usage: [
    'Usage: tooldesk tools new <format> <name> [--root DIR]',
    '',
    `Formats: ${NEW_TOOL_FORMATS.join(', ')}.`,
    'Writes the template into DIR (default: the first tools root in settings, else TOOLDESK_HOME/tools),',
    'with the template name replaced by <name>. Script tools register as script_<name>.',
    '',
    'Example: tooldesk tools new three-layer repeat_text && tooldesk tools check',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['root'] });
    const [formatArg, name, extra] = args.positionals;
    if (!formatArg || !name || extra !== undefined) throw new UsageError('expected a format and a name');
    const format = (NEW_TOOL_FORMATS as readonly string[]).includes(formatArg) ? (formatArg as NewToolFormat) : ALIASES[formatArg];
    if (!format) throw new UsageError(`unknown format "${formatArg}"; choose one of ${NEW_TOOL_FORMATS.join(', ')}`);
    const problem = newToolNameProblem(format, name);
    if (problem) throw new UsageError(problem);
    // The tools the app would load (with --root: that folder's), so a name already taken is
    // refused here as in the app, not found later as a clash.
    const runtime = await openCliRuntime(io, { tools: { args } });
    let root: string;
    let loadedTool: (toolName: string) => string | null;
    try {
      // The first root, resolved as `tools list` resolves it (~ expanded), so the tool shows up there.
      root = runtime.toolRoots()[0]!.path;
      loadedTool = loadedToolFile((await runtime.tools()).source.groups());
    } finally {
      await runtime.close();
    }
    try {
      const created = await newTool(root, format, name, { loadedTool });
      for (const file of created.paths) io.stdout.write(`created ${file}\n`);
      io.stdout.write(`Edit it, then check it: tooldesk tools check --root ${root}\n`);
      return 0;
    } catch (error) {
      if (error instanceof AuthoringError) {
        io.stderr.write(`tooldesk tools new: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  },
};
