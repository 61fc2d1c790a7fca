// `tooldesk skills install PATH|ZIP [--yes]` and `skills remove NAME`. Install shows the skill's
// front matter, files and flags first (also with --yes) and asks; nothing of it runs.
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';
import { formatDiagnostic } from '../tools-load.ts';
import { TerminalApprover } from '../terminal-approver.ts';

export const skillsInstallCommand: Command = {
  name: 'install',
  summary: 'Install a skill folder or a .zip/.skill archive into TOOLDESK_HOME/skills (--yes)',
  usage: ['Usage: tooldesk skills install PATH|ZIP [--yes]', '', 'Copies a skill folder, or unpacks a .zip / .skill archive (zip-slip safe, size-bounded), into', 'TOOLDESK_HOME/skills after showing its front matter, files and flags. --yes installs without asking (they are shown anyway).'].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['yes'] });
    const [path, ...extra] = args.positionals;
    if (!path) throw new UsageError('missing the PATH of a skill folder or archive');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const runtime = await openCliRuntime(io, { tools: false });
    try {
      let staged;
      try {
        staged = await (await runtime.skillAdmin()).stage(path);
      } catch (error) {
        io.stderr.write(`tooldesk skills: ${(error as Error).message}\n`);
        return 1;
      }
      const fm = staged.frontMatter;
      io.stdout.write(`name: ${fm.name}\ndescription: ${fm.description}\n${fm.license ? `license: ${fm.license}\n` : ''}${fm.allowedTools?.length ? `allowed-tools: ${fm.allowedTools.join(' ')} (a proposal, never granted)\n` : ''}`);
      io.stdout.write(`files (${staged.files.length}): ${staged.files.join(', ')}\n`);
      io.stdout.write(staged.flags.length ? `flags:\n${staged.flags.map((f) => `  ${f}`).join('\n')}\n` : 'flags: none\n');
      for (const d of staged.diagnostics) io.stdout.write(`${formatDiagnostic(d)}\n`);
      if (!flag(args, 'yes')) {
        const answer = await new TerminalApprover(io.stdin, io.stderr).question(`Install skill ${fm.name} into ${staged.target}? [y/N] `);
        if (!/^y(es)?$/i.test(answer?.trim() ?? '')) {
          staged.discard();
          io.stderr.write('not installed\n');
          return 1;
        }
      }
      try {
        io.stdout.write(`installed ${fm.name} in ${staged.commit()}\n`);
        return 0;
      } catch (error) {
        staged.discard();
        io.stderr.write(`tooldesk skills: ${(error as Error).message}\n`);
        return 1;
      }
    } finally {
      await runtime.close();
    }
  },
};

export const skillsRemoveCommand: Command = {
  name: 'remove',
  summary: 'Remove a skill installed in TOOLDESK_HOME/skills (its environment and approvals too)',
  usage: 'Usage: tooldesk skills remove NAME\n\nDeletes a skill that `skills install` put in TOOLDESK_HOME/skills, with its Python environment and "always" approvals.',
  async run(argv, io) {
    const [name] = parseArgs(argv, {}).positionals;
    if (!name) throw new UsageError('missing the skill NAME');
    const runtime = await openCliRuntime(io, { tools: false });
    try {
      const removed = (await runtime.skillAdmin()).remove(name);
      if ('error' in removed) {
        io.stderr.write(`tooldesk skills: ${removed.error}\n`);
        return 1;
      }
      io.stdout.write(`removed ${removed.removed}\n`);
      return 0;
    } finally {
      await runtime.close();
    }
  },
};

export const skillsNewCommand: Command = {
  name: 'new',
  summary: 'Create a skill from the template in TOOLDESK_HOME/skills (SKILL.md and scripts/hello.py)',
  usage: 'Usage: tooldesk skills new NAME\n\nWrites TOOLDESK_HOME/skills/NAME from the skill template: a SKILL.md to edit and an example script.',
  async run(argv, io) {
    const [name] = parseArgs(argv, {}).positionals;
    if (!name) throw new UsageError('missing the skill NAME');
    const runtime = await openCliRuntime(io, { tools: false });
    try {
      const made = (await runtime.skillAdmin()).create(name);
      io.stdout.write(`created ${made.dir}\n${made.files.map((f) => `  ${f}`).join('\n')}\nEdit SKILL.md (its description tells the model when to use it), then: tooldesk skills check ${name}\n`);
      return 0;
    } catch (error) {
      io.stderr.write(`tooldesk skills: ${(error as Error).message}\n`);
      return 1;
    } finally {
      await runtime.close();
    }
  },
};
