// `tooldesk skills list [--json]` and `skills show NAME`: what was found, read as data (nothing
// in a skill runs to list or show it; `!`command`` lines are shown as written).
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';
import { formatDiagnostic } from '../tools-load.ts';

/** `mcp`: start the configured MCP servers too, so the skills they serve are listed. */
async function withSkills(io: CliIO, work: (skills: Awaited<ReturnType<Awaited<ReturnType<typeof openCliRuntime>>['skills']>>) => Promise<number> | number, mcp = false): Promise<number> {
  const runtime = await openCliRuntime(io, { tools: mcp ? { mcp: 'start-all' } : false });
  try {
    return await work(mcp ? (await runtime.tools()).skills : await runtime.skills());
  } finally {
    await runtime.close();
  }
}

export const skillsListCommand: Command = {
  name: 'list',
  summary: 'List the skills found: name, origin, description, file count (--json)',
  usage: ['Usage: tooldesk skills list [--json] [--mcp]', '', 'Every skill found, enabled or not, with its origin (where it was found) and its problems.', '--mcp also starts the switched-on MCP servers and lists the skills they serve (origin mcp:SERVER).'].join('\n'),
  run(argv, io) {
    const args = parseArgs(argv, { booleans: ['json', 'mcp'] });
    return withSkills(io, (source) => {
      const enabled = new Set(source.enabledSkills().map((s) => s.id));
      const rows = source.skills().map((s) => ({
        name: s.id,
        origin: s.origin.label,
        enabled: enabled.has(s.id),
        description: s.frontMatter.description,
        files: s.files.length,
        dir: s.dir,
      }));
      if (flag(args, 'json')) {
        io.stdout.write(`${JSON.stringify({ skills: rows, diagnostics: source.diagnostics() }, null, 2)}\n`);
        return 0;
      }
      if (rows.length === 0) io.stdout.write('No skills found.\n');
      for (const r of rows) io.stdout.write(`${r.name}  [${r.origin}${r.enabled ? '' : ', off'}]  ${r.files} file(s)\n  ${r.description}\n`);
      for (const d of source.diagnostics()) io.stderr.write(`${formatDiagnostic(d)}\n`);
      return 0;
    }, flag(args, 'mcp'));
  },
};

export const skillsShowCommand: Command = {
  name: 'show',
  summary: "Print a skill's front matter and instructions (nothing in it runs)",
  usage: ['Usage: tooldesk skills show NAME', '', 'NAME is the skill\'s name, or `origin:name` when two origins have one of that name.'].join('\n'),
  run(argv, io) {
    const args = parseArgs(argv, {});
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('missing the skill NAME');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    return withSkills(io, (source) => {
      const skill = source.find(name);
      if ('error' in skill) {
        io.stderr.write(`tooldesk skills: ${skill.error}\n`);
        return 1;
      }
      const fm = skill.frontMatter;
      const lines = [`name: ${fm.name}`, `description: ${fm.description}`];
      if (fm.license) lines.push(`license: ${fm.license}`);
      if (fm.compatibility) lines.push(`compatibility: ${fm.compatibility}`);
      if (fm.metadata) lines.push(`metadata: ${JSON.stringify(fm.metadata)}`);
      if (fm.allowedTools?.length) lines.push(`allowed-tools: ${fm.allowedTools.join(' ')} (a proposal: never granted by the skill)`);
      lines.push(`origin: ${skill.origin.label} (${skill.dir})`, `files: ${skill.files.join(', ')}`);
      const flags = source.flags(skill);
      for (const f of flags) lines.push(`flag: ${f}`);
      io.stdout.write(`${lines.join('\n')}\n---\n${skill.body.trimEnd()}\n`);
      return 0;
    });
  },
};
