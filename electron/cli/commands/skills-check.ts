// `tooldesk skills check [NAME] [--json]`: the flags of each skill (hidden Unicode, base64 blobs,
// curl | sh, credential reads, writes outside) and its load problems. Exit 1 when any is flagged.
import { openCliRuntime } from '../cli-runtime.ts';
import type { Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';
import { formatDiagnostic } from '../tools-load.ts';

export const skillsCheckCommand: Command = {
  name: 'check',
  summary: 'Flag risky patterns in skills (hidden Unicode, base64, curl | sh, credential reads, writes outside)',
  usage: ['Usage: tooldesk skills check [NAME] [--json]', '', 'Reads every file of the skill (or of every skill) and prints what it flags, file:line. Exit 1 when anything is flagged.', 'A flag informs: you decide whether to use the skill.'].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['json'] });
    const runtime = await openCliRuntime(io, { tools: false });
    try {
      const checked = (await runtime.skillAdmin()).check(args.positionals[0]);
      if ('error' in checked) {
        io.stderr.write(`tooldesk skills: ${checked.error}\n`);
        return 1;
      }
      const flagged = checked.filter((c) => c.flags.length > 0).length;
      if (flag(args, 'json')) {
        io.stdout.write(`${JSON.stringify(checked.map((c) => ({ name: c.skill.id, dir: c.skill.dir, flags: c.flags, diagnostics: c.diagnostics })), null, 2)}\n`);
      } else {
        for (const c of checked) {
          io.stdout.write(`${c.skill.id} (${c.skill.dir}): ${c.flags.length ? `${c.flags.length} flag(s)` : 'nothing flagged'}\n`);
          for (const f of c.flags) io.stdout.write(`  ${c.skill.dir}/${f.file}:${f.line}: ${f.message} [${f.kind}]\n`);
          for (const d of c.diagnostics) io.stdout.write(`  ${formatDiagnostic(d)}\n`);
        }
      }
      return flagged > 0 ? 1 : 0;
    } finally {
      await runtime.close();
    }
  },
};
