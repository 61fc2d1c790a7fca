// `tooldesk tools new <format> <name>`: scaffolds a tool from resources/templates/<format>/ into
// a tools root (default: the first configured root, else TOOLDESK_HOME/tools).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { openCliSettings } from '../cli-settings.ts';
import { option, parseArgs } from '../parse-args.ts';
import { writeFileAtomic } from '../../runtime/sources/files/atomic-write.ts';
import { AuthoringError, createTool, templateFiles, templateIsFolder, validateToolName } from '../../runtime/sources/authoring/tool-authoring.ts';
import { TEMPLATE_FORMATS, type TemplateFormat } from '../../runtime/sources/authoring/templates-dir.ts';
import { toolRootsFromSettings } from '../../runtime/sources/discovery/tool-roots.ts';

const ALIASES: Record<string, TemplateFormat> = {
  script: 'script-py',
  'script.py': 'script-py',
  'script.js': 'script-js',
  astrion: 'three-layer',
  module: 'module-ts',
  ts: 'module-ts',
  py: 'python',
  ps1: 'powershell',
};

export const toolsNewCommand: Command = {
  name: 'new',
  summary: 'Create a tool from a template (script-py, script-js, three-layer, module-ts, python, powershell)',
  usage: [
    'Usage: tooldesk tools new <format> <name> [--root DIR]',
    '',
    `Formats: ${TEMPLATE_FORMATS.join(', ')}.`,
    'Writes the template into DIR (default: the first tools root in settings, else TOOLDESK_HOME/tools),',
    'with the template name replaced by <name>. Script tools register as script_<name>.',
    '',
    'Example: tooldesk tools new three-layer word_count && tooldesk tools check',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['root'] });
    const [formatArg, name, extra] = args.positionals;
    if (!formatArg || !name || extra !== undefined) throw new UsageError('expected a format and a name');
    const format = (TEMPLATE_FORMATS as readonly string[]).includes(formatArg) ? (formatArg as TemplateFormat) : ALIASES[formatArg];
    if (!format) throw new UsageError(`unknown format "${formatArg}"; choose one of ${TEMPLATE_FORMATS.join(', ')}`);
    const problem = validateToolName(format, name);
    if (problem) throw new UsageError(problem);
    const given = option(args, 'root');
    let root: string;
    if (given) root = resolve(given);
    else {
      const { home, settings } = openCliSettings(io);
      // The first user root, resolved as `tools list` resolves it (~ expanded), so the tool shows up there.
      root = toolRootsFromSettings(settings.get(), { home, cwd: process.cwd() })[0]!.path;
      settings.close();
    }
    try {
      const created = await scaffold(format, name, root);
      for (const file of created) io.stdout.write(`created ${file}\n`);
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

async function scaffold(format: TemplateFormat, name: string, root: string): Promise<string[]> {
  if (format === 'three-layer' || format === 'script-py' || format === 'script-js') {
    const authored = format === 'three-layer' ? 'three-layer' : 'script';
    const overrides: Record<string, string> = format === 'script-js' ? { 'script.js': templateFiles('script-js', name)['script.js']! } : {};
    const tool = await createTool(root, authored, name, overrides);
    return Object.keys(tool.files).map((file) => join(tool.dir, file));
  }
  if (templateIsFolder(format)) throw new AuthoringError(`template ${format} is a folder; not supported here`);
  const files = templateFiles(format, name);
  await mkdir(root, { recursive: true });
  const written: string[] = [];
  for (const [file, content] of Object.entries(files)) {
    const path = join(root, file);
    if (existsSync(path)) throw new AuthoringError(`${path} already exists; choose another name`);
    await writeFileAtomic(path, content);
    written.push(path);
  }
  return written;
}
