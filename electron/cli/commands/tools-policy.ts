// `tooldesk tools policy NAME [auto|ask-once|ask-always] [--result never|on-error|always] [--reset]`:
// the user's per-tool override (settings.permissionOverrides), the same one the Settings panel and
// "always allow" write. Without a policy it prints what applies now.
import { EXECUTION_POLICIES, RESULT_APPROVAL_POLICIES, type ExecutionPolicy, type ResultApprovalPolicy, type ToolPermission } from '../../../shared/tools.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, option, parseArgs } from '../parse-args.ts';
import { loadCliTools } from '../tools-load.ts';

export const toolsPolicyCommand: Command = {
  name: 'policy',
  summary: 'Show or set a tool\'s approval policies (run: auto|ask-once|ask-always, --result)',
  usage: [
    'Usage: tooldesk tools policy NAME [auto|ask-once|ask-always] [--result never|on-error|always] [--reset] [--root DIR]...',
    '',
    'Sets your override of a tool\'s policies, for the app, the CLI and `mcp serve`:',
    '  auto | ask-once | ask-always   when running the tool asks you first',
    '  --result P                     when its result is shown to you before the model sees it',
    '  --reset                        drop your override (the tool\'s own policy applies again)',
    'Without a policy, prints the policies that apply now.',
    '',
    'Example: tooldesk tools policy delete_file ask-always',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['result', 'root'], booleans: ['reset'] });
    const [name, policy, ...extra] = args.positionals;
    if (!name) throw new UsageError('missing the tool NAME');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (policy !== undefined && !EXECUTION_POLICIES.includes(policy as ExecutionPolicy)) {
      throw new UsageError(`"${policy}" is not a run policy: use ${EXECUTION_POLICIES.join(', ')}`);
    }
    const result = option(args, 'result');
    if (result !== undefined && !RESULT_APPROVAL_POLICIES.includes(result as ResultApprovalPolicy)) {
      throw new UsageError(`--result "${result}" is not a result policy: use ${RESULT_APPROVAL_POLICIES.join(', ')}`);
    }
    if (flag(args, 'reset') && (policy !== undefined || result !== undefined)) throw new UsageError('--reset excludes setting a policy');
    const loaded = await loadCliTools(args, io);
    try {
      const info = loaded.session.tool(name);
      if (!info) {
        io.stderr.write(`tooldesk tools policy: no tool "${name}" in ${loaded.roots.join(', ')}. Run \`tooldesk tools list\` for the names.\n`);
        return 1;
      }
      const overrides = loaded.settings.get().permissionOverrides;
      if (flag(args, 'reset')) {
        const { [info.name]: _dropped, ...rest } = overrides;
        loaded.settings.set('permissionOverrides', rest);
      } else if (policy !== undefined || result !== undefined) {
        const next: ToolPermission = { ...overrides[info.name] };
        if (policy !== undefined) next.executionPolicy = policy as ExecutionPolicy;
        if (result !== undefined) next.resultApprovalPolicy = result as ResultApprovalPolicy;
        loaded.settings.set('permissionOverrides', { ...overrides, [info.name]: next });
        // An override of an MCP server's tool holds for the server as configured now.
        if (info.format === 'mcp') loaded.runtime.rules().bind(info.groupName);
      }
      const now = loaded.session.effectivePermission(info.name);
      const own = loaded.settings.get().permissionOverrides[info.name];
      io.stdout.write(`${info.name}: run ${now?.executionPolicy}, result ${now?.resultApprovalPolicy}${own ? ' (your override)' : ''}\n`);
      return 0;
    } finally {
      await loaded.close();
    }
  },
};
