// `tooldesk rules add|list|remove|test`: the ordered tool rules of settings.toolRules (deny > ask >
// allow, checked on a call's resolved arguments before the tool's policy).
import type { RuleMatcher, ToolRule } from '../../../shared/permissions.ts';
import { RULE_ACTIONS, type RuleAction } from '../../../shared/permissions.ts';
import { ruleProblems } from '../../../shared/tool-rule.ts';
import { explainCall, explanationLines } from '../../runtime/tools/rules/explain-call.ts';
import { withCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { commandGroup } from '../command-group.ts';
import { option, options, parseArgs } from '../parse-args.ts';
import { settingsListCommand } from '../settings-list-command.ts';
import { describeRule, parseJsonObject } from './rules-text.ts';
import { parseMatcher } from '../../../shared/rule-text.ts';

const addCommand: Command = {
  name: 'add',
  summary: 'Add a rule: rules add (allow|ask|deny) TOOL_GLOB [--where …]… [--reason TEXT]',
  usage: [
    'Usage: tooldesk rules add (allow|ask|deny) TOOL_GLOB [--where TEST]... [--reason TEXT] [--at N]',
    '',
    'TOOL_GLOB names tools: `*` any run of characters, `?` one (MCP tools are SERVER__tool).',
    'Each --where tests the resolved arguments (all must hold); PATH is a dotted path (`url`,',
    '`files.*.path`) or a JSON pointer (`/a/b`); empty, it tests every string of the arguments:',
    '  PATH~GLOB      glob (on paths `*` stays in one folder, `**` crosses folders)',
    '  PATH=~REGEX    regular expression',
    '  PATH^=PREFIX   prefix (on paths: whole folders)',
    '  PATH==VALUE    equal (VALUE as JSON when it parses, else text)',
    'Paths (`/…`, `~/…`, `../…`) are compared after `~`, `..` and symlinks are resolved.',
    '  --reason TEXT  told to the model when the rule denies, shown in the chat',
    '  --at N         insert as rule N (default: last)',
    '',
    'Deny wins over everything (ask, allow, "always", --yes, auto), then ask, then allow.',
    'Examples:',
    '  tooldesk rules add allow browser_navigate --where "url~http://localhost:*"',
    '  tooldesk rules add deny "*" --where "~~/.ssh/**" --reason "keys stay private"',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['where', 'reason', 'at'] });
    const [action, tool, ...extra] = args.positionals;
    if (!action || !RULE_ACTIONS.includes(action as RuleAction)) throw new UsageError(`the first word is the action: ${RULE_ACTIONS.join(', ')}${action ? ` (got "${action}")` : ''}`);
    if (!tool) throw new UsageError('missing the TOOL_GLOB (a tool name, or a glob such as "browser_*")');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const where = options(args, 'where').map(parseWhere);
    const reason = option(args, 'reason');
    const rule: ToolRule = { action: action as RuleAction, tool, ...(where.length ? { where } : {}), ...(reason ? { reason } : {}) };
    const problems = ruleProblems(rule);
    if (problems.length) throw new UsageError(`the rule is not valid: ${problems.join('; ')}`);
    return withCliRuntime(io, async (runtime) => {
      const rules = [...(runtime.settings.get().toolRules ?? [])];
      const atText = option(args, 'at');
      const at = atText === undefined ? rules.length + 1 : Number(atText);
      if (!Number.isInteger(at) || at < 1 || at > rules.length + 1) throw new UsageError(`--at must be a rule number from 1 to ${rules.length + 1}`);
      rules.splice(at - 1, 0, rule);
      runtime.settings.set('toolRules', rules);
      // A rule on an MCP server's tools is given for the server as configured now.
      for (const server of Object.keys(runtime.settings.get().mcpServers ?? {})) if (tool.startsWith(`${server}__`)) runtime.rules().bind(server);
      io.stdout.write(`Added rule ${at}: ${describeRule(rule)}\n`);
      return 0;
    });
  },
};

const listCommand = settingsListCommand({
  group: 'rules',
  summary: 'List the rules in order',
  items: (settings) => settings.toolRules,
  empty: 'No rules: every call follows its tool\'s policy. `tooldesk rules add --help` shows how to add one.',
  line: (rule, i) => `${String(i + 1).padStart(3)}  ${describeRule(rule)}${ruleProblems(rule).length ? `   [broken: ${ruleProblems(rule).join('; ')}]` : ''}`,
});

const removeCommand: Command = {
  name: 'remove',
  summary: 'Remove rule N (its number in `rules list`)',
  usage: 'Usage: tooldesk rules remove N',
  async run(argv, io) {
    const args = parseArgs(argv);
    const [text, ...extra] = args.positionals;
    if (!text || !/^\d+$/.test(text)) throw new UsageError('rules remove needs the rule NUMBER (see `tooldesk rules list`)');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    return withCliRuntime(io, async (runtime) => {
      const rules = [...(runtime.settings.get().toolRules ?? [])];
      const n = Number(text);
      if (n < 1 || n > rules.length) {
        io.stderr.write(`tooldesk rules remove: there is no rule ${n} (there ${rules.length === 1 ? 'is 1 rule' : `are ${rules.length} rules`}).\n`);
        return 1;
      }
      const [removed] = rules.splice(n - 1, 1);
      runtime.settings.set('toolRules', rules);
      io.stdout.write(`Removed rule ${n}: ${describeRule(removed!)}\n`);
      return 0;
    });
  },
};

const testCommand: Command = {
  name: 'test',
  summary: 'Show which rule decides a call: rules test TOOL --args JSON',
  usage: [
    'Usage: tooldesk rules test TOOL [--args JSON] [--toolset NAME]',
    '',
    'Prints the decision of the rules (deny, ask, allow, or none: the tool\'s policy decides) and the',
    'rule that made it, for TOOL called with the arguments JSON (as resolved: no $VAR_REF). Each path',
    'argument follows with the forms a rule tests (`~//x` → HOME/x, symlinks followed before `..`;',
    'a relative path against the working folder here — a tool resolves it where it runs) and the',
    'form the deciding rule matched.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['args', 'toolset'] });
    const [tool, ...extra] = args.positionals;
    if (!tool) throw new UsageError('rules test needs the TOOL name');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const callArgs = parseJsonObject(option(args, 'args'), '--args');
    return withCliRuntime(io, async (runtime) => {
      const book = runtime.rules();
      const explained = explainCall(book.rules(option(args, 'toolset')), { names: [tool], args: callArgs }, { home: book.home, bases: [book.workingDir()] });
      const { verdict } = explained;
      if (verdict.action === 'none') io.stdout.write(`none: no rule matches ${tool}; its policy decides\n`);
      else io.stdout.write(`${verdict.action} by ${verdict.label}${verdict.reason ? `: ${verdict.reason}` : ''}\n`);
      for (const line of explanationLines(explained)) io.stdout.write(`${line}\n`);
      return 0;
    });
  },
};

/** `PATH=~REGEX`, `PATH^=PREFIX`, `PATH==VALUE`, `PATH~GLOB` (the first operator found, in that order). */
export function parseWhere(text: string): RuleMatcher {
  const parsed = parseMatcher(text);
  if ('error' in parsed) throw new UsageError(`--where ${parsed.error}`);
  return parsed;
}

export const rulesCommand: Command = commandGroup({
  name: 'rules',
  summary: 'Rules on tool calls\' arguments: allow, ask or deny (deny wins)',
  subcommands: [addCommand, listCommand, removeCommand, testCommand],
  footer: ['Rules live in settings.toolRules, in order; Settings → Rules edits them in the app.'],
});
