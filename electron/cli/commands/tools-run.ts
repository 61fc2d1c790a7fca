// `tooldesk tools run NAME --args JSON`: one call through a ToolSession's execute(), approvals on the terminal.
import { UNTRUSTED_FOLDER_CODE, type ApprovalDecision } from '../../../shared/tools.ts';
import { closeNames } from '../../runtime/tools/close-names.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, option, parseArgs } from '../parse-args.ts';
import { describeRequest, TerminalApprover } from '../terminal-approver.ts';
import type { ApprovalCallback } from '../../runtime/tools/types.ts';
import { terminalElicitation } from '../terminal-elicitation.ts';
import { terminalSampling } from '../terminal-sampling.ts';
import type { ProviderResolution } from '../../runtime/llm/resolve-provider.ts';
import { loadCliTools } from '../tools-load.ts';
import { switchedOffMessage } from '../../runtime/host/mcp-client.ts';
import type { Settings } from '../../../shared/settings.ts';

/** The MCP server NAME belongs to when that server is switched off (its tool marked so, or `SERVER__…` of an off server never listed). */
function switchedOffServer(settings: Pick<Settings, 'mcpServers' | 'groupDefaults'>, name: string, meta: Record<string, unknown> | undefined): string | undefined {
  const mcp = meta?.mcp as { server?: string; switchedOff?: boolean } | undefined;
  if (mcp) return mcp.switchedOff ? mcp.server : undefined;
  if (meta) return undefined;
  const at = name.indexOf('__');
  const server = at > 0 ? name.slice(0, at) : '';
  const entry = (settings.mcpServers ?? {})[server] as { enabled?: unknown; disabled?: unknown } | undefined;
  if (!entry || !Object.hasOwn(settings.mcpServers, server)) return undefined;
  const on = settings.groupDefaults[server] === true && entry.enabled !== false && entry.disabled !== true;
  return on ? undefined : server;
}

export const toolsRunCommand: Command = {
  name: 'run',
  summary: 'Run one tool with JSON arguments (approvals asked here; --yes approves)',
  usage: [
    'Usage: tooldesk tools run NAME [--args JSON] [--root DIR]... [--yes] [--json]',
    '',
    'Runs NAME through the same executor as the app: argument validation, $VAR_REF, approvals,',
    'formatting and truncation. Its group is enabled for this run. Of the MCP servers, only the one',
    'whose tools are named like NAME (SERVER__tool) is started; a file tool starts none.',
    '  --args JSON  the arguments, a JSON object (default {})',
    '  --yes        approve execution and result without asking (an MCP server\'s form',
    '               questions get their defaults; its URL requests are declined; its',
    '               sampling requests are answered by the active provider\'s model)',
    '  --json       print the whole result as JSON instead of the text the model would see',
    '',
    'Example: tooldesk tools run get_forecast --args \'{"city": "Paris"}\' --yes',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['root', 'args'], booleans: ['yes', 'json'] });
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('tools run needs the NAME of a tool');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    let toolArgs: Record<string, unknown> = {};
    const text = option(args, 'args');
    if (text !== undefined) {
      try {
        toolArgs = JSON.parse(text) as Record<string, unknown>;
      } catch (error) {
        throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
      }
      if (typeof toolArgs !== 'object' || toolArgs === null || Array.isArray(toolArgs)) throw new UsageError('--args must be a JSON object');
    }
    let checkArgs: ((tool: string, args: Record<string, unknown>) => { ok: boolean; message?: string }) | undefined;
    const approver = new TerminalApprover(io.stdin, io.stderr, { env: io.env, checkArgs: (tool, args) => checkArgs?.(tool, args) ?? { ok: true } });
    // How the run's approval ended, for a message written for the person at the terminal.
    let answer: ApprovalDecision | undefined;
    const approve: ApprovalCallback = async (request) => {
      // No model reads the result here: it is printed for the user who ran the tool, so the
      // tool's result approval ("send it to the model?") has nothing to guard.
      if (request.type === 'result') return { decision: 'once' };
      if (!flag(args, 'yes')) return (answer = await approver.ask(request));
      io.stderr.write(`${describeRequest(request)} — approved by --yes\n`);
      return { decision: 'once' };
    };
    const elicit = terminalElicitation(approver, io.stderr, flag(args, 'yes'));
    // A server's sampling request is answered by the provider `tooldesk chat` would use.
    let provider: () => Promise<ProviderResolution> = async () => ({ ok: false, configured: false, reason: 'the tools are not loaded yet' });
    const sample = terminalSampling(approver, io.stderr, flag(args, 'yes'), () => provider());
    // Only the MCP server whose tools are named like NAME starts (a file tool starts none).
    const loaded = await loadCliTools(args, io, { approve, keyEndpoint: true, interactions: { elicit, sample }, mcp: { startOwnerOf: name } });
    // Loaded with the first request: a run without sampling loads no model code.
    provider = async () => (await import('../../runtime/llm/resolve-provider.ts')).resolveProvider(loaded.settings.get(), loaded.runtime.secrets);
    const { session } = loaded;
    checkArgs = (tool, toolArgs) => session.checkArgs(tool, toolArgs);
    const group = session.listGroups().find((g) => g.tools.some((t) => t.name === name || t.modelName === name));
    // A switched-off MCP server is never started, not even for a tool the user named.
    const offServer = switchedOffServer(loaded.settings.get(), name, group?.tools.find((t) => t.name === name || t.modelName === name)?.meta);
    if (offServer) {
      approver.close();
      await loaded.close();
      io.stderr.write(`tooldesk tools run: ${switchedOffMessage(offServer)}\n`);
      return 1;
    }
    if (!group) {
      approver.close();
      await loaded.close();
      const names = session.listGroups().flatMap((g) => g.tools.map((t) => t.name));
      const near = closeNames(name, names);
      io.stderr.write(`tooldesk tools run: no tool "${name}" in ${loaded.roots.join(', ')}${near.length ? `. Did you mean: ${near.join(', ')}?` : ''}\n`);
      // An MCP server that did not start has no tools to find: say why it did not.
      const server = name.includes('__') ? name.slice(0, name.indexOf('__')) : '';
      for (const d of loaded.allDiagnostics.filter((x) => server && x.file === `mcpServers.${server}` && x.severity === 'error')) io.stderr.write(`  ${d.message}\n`);
      // The tool may sit in a project folder nobody approved yet: say where to look.
      for (const d of loaded.allDiagnostics.filter((x) => x.code === UNTRUSTED_FOLDER_CODE)) {
        io.stderr.write(`  untrusted project folder — review: ${d.file} (not loaded; \`tooldesk tools trust ${d.file}\` approves it)\n`);
      }
      return 1;
    }
    // The user named the tool, so it runs; but say when the app would not offer it.
    const tool = group.tools.find((t) => t.name === name || t.modelName === name);
    if (!group.builtin && !group.enabled) {
      io.stderr.write(`tooldesk tools run: note: the group "${group.name}" is switched off in Tooldesk (chats are not offered its tools); running ${name} anyway because you named it. \`tooldesk tools enable ${group.name}\` switches it on.\n`);
    } else if (tool && !tool.enabled) {
      io.stderr.write(`tooldesk tools run: note: ${name} is switched off in Tooldesk (chats are not offered it); running it anyway because you named it. \`tooldesk tools enable ${name}\` switches it on.\n`);
    }
    // Enabled for this run only: the session's own layer, nothing is switched in the settings.
    session.enableForRun(name);
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const result = await session.execute(name, toolArgs, { signal: controller.signal });
      if (result.logs) io.stderr.write(`${result.logs.trimEnd()}\n`);
      if (!flag(args, 'json')) for (const warning of result.warnings ?? []) io.stderr.write(`tooldesk: warning: ${warning}\n`);
      // MCP Apps render in the app only: the terminal gets the text, and a note that there is more.
      if (result.app && !flag(args, 'json')) io.stderr.write(`tooldesk: note: ${name} also has an interactive app (${result.app.uri}); the Tooldesk app shows it in the chat, this prints its text.\n`);
      if (flag(args, 'json')) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else if (result.status === 'SUCCESS') io.stdout.write(`${result.finalText}
`);
      else if (result.status === 'EXECUTION_REJECTED') io.stderr.write(`${notRunMessage(name, result.rejectReason, answer, Boolean((io.stdin as { isTTY?: boolean }).isTTY))}
`);
      else io.stderr.write(`${result.status}: ${result.finalText.replace(/^Error: /, '')}
`);
      return result.status === 'SUCCESS' ? 0 : 1;
    } finally {
      process.removeListener('SIGINT', onSigint);
      approver.close();
      await loaded.close();
    }
  },
};

/**
 * Why the call did not run, for the person who ran it (the result's finalText is for a model):
 * nobody could answer, the user said no, or a rule or an earlier "no" decided (without asking, or
 * on the arguments the user edited).
 */
export function notRunMessage(tool: string, reason: string, answer: ApprovalDecision | undefined, tty: boolean): string {
  const allow = `pass --yes to approve it, or allow it for good with \`tooldesk rules add allow ${tool}\``;
  if (answer?.unasked) {
    const why = tty ? 'no answer came (the input ended)' : 'this terminal cannot ask (standard input is not a terminal, and it ended without an answer)';
    return `Not run: ${tool} needs approval and ${why}; ${allow}.`;
  }
  // A "yes" to edited arguments that a rule then denied is the rule's no, not the user's.
  if (answer && answer.decision === 'reject') return `Not run: you did not allow it${answer.reason && answer.reason !== 'Rejected on the terminal.' ? ` ("${answer.reason}")` : ''}.`;
  return `Not run: ${reason.replace(/\.$/, '')}. \`tooldesk rules test ${tool}\` shows which rule decides it.`;
}
