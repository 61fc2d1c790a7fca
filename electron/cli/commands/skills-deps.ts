// `tooldesk skills deps NAME [--add PKG]... [--yes]`: what the skill declares (requirements.txt,
// PEP 723 blocks) plus the packages named, installed with pip as configured into the skill's own
// environment, after a yes. Without --add and with nothing declared, says what is installed.
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, options, parseArgs } from '../parse-args.ts';
import { TerminalApprover } from '../terminal-approver.ts';

export const skillsDepsCommand: Command = {
  name: 'deps',
  summary: "Install Python packages into a skill's own environment with pip as configured (--add PKG, --yes)",
  usage: [
    'Usage: tooldesk skills deps NAME [--add PKG]... [--yes]',
    '',
    "Installs the skill's declared packages (its requirements.txt, PEP 723 `# /// script` blocks) and each",
    "--add PKG into TOOLDESK_HOME/skill-envs/NAME with pip as you configured it (index settings respected);",
    "pip runs sandboxed, writing only that environment. Later runs of the skill's scripts use it.",
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['add'], booleans: ['yes'] });
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('missing the skill NAME');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const runtime = await openCliRuntime(io, { tools: false });
    try {
      const found = (await runtime.skills()).find(name);
      if ('error' in found) {
        io.stderr.write(`tooldesk skills: ${found.error}\n`);
        return 1;
      }
      const admin = await runtime.skillAdmin();
      const packages = [...new Set([...admin.declaredDeps(found), ...options(args, 'add')])];
      if (packages.length === 0) {
        io.stdout.write(`skill ${found.id} declares no Python packages; add one with --add PKG\n`);
        return 0;
      }
      io.stdout.write(`skill ${found.id}: pip install ${packages.join(' ')} (sandboxed; network on for pip only)\n`);
      if (!flag(args, 'yes')) {
        const answer = await new TerminalApprover(io.stdin, io.stderr).question('Install them? [y/N] ');
        if (!/^y(es)?$/i.test(answer?.trim() ?? '')) {
          io.stderr.write('nothing installed\n');
          return 1;
        }
      }
      const outcome = await admin.installDeps(found, packages);
      (outcome.ok ? io.stdout : io.stderr).write(`${outcome.message}\n`);
      return outcome.ok ? 0 : 1;
    } finally {
      await runtime.close();
    }
  },
};
