// `tooldesk chat "prompt"`: one turn headless. The answer streams to stdout; tool calls,
// approvals and notices go to stderr; approvals are asked on the terminal (or --yes).
import type { ProviderConfig, Settings } from '../../../shared/settings.ts';
import type { SessionManager } from '../../runtime/chat/persistence/session-manager.ts';
import { parseSlashCommand } from '../../runtime/chat/commands/slash-command.ts';
import { resolveProvider, type ProviderResolution } from '../../runtime/llm/resolve-provider.ts';
import { detectLocalProviders } from '../../runtime/llm/detect-local-providers.ts';
import type { SecretStore } from '../../runtime/store/secret-store.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { formatDiagnostic } from '../tools-load.ts';
import { flag, option, parseArgs } from '../parse-args.ts';
import { PERMISSION_LEVELS, type PermissionLevel } from '../../../shared/permissions.ts';
import { findToolSet } from '../../runtime/tools/rules/rule-book.ts';
import { absentSkillsWarning } from '../../runtime/tools/skill-scope.ts';
import { TerminalApprover } from '../terminal-approver.ts';
import { humanPrinter } from '../chat-printer.ts';
import { formatCalls, parseCliChatCommand, sessionCalls } from '../chat-calls.ts';
import { interruptionCause } from '../../../shared/interruption-text.ts';

interface ChatFlags {
  baseURL?: string;
  model?: string;
  apiKeySecret?: string;
}

/** --base-url/--model override the configured provider for this run (nothing is saved). */
function cliProviderResolver(flags: ChatFlags): ((settings: Settings, secrets: SecretStore) => Promise<ProviderResolution>) | undefined {
  if (!flags.baseURL && !flags.model) return undefined;
  return async (settings, secrets) => {
    if (!flags.baseURL) {
      const active = settings.providers.find((p) => p.id === settings.activeProviderId);
      if (!active) return { ok: false, configured: false, reason: '--model needs --base-url, or an active provider in the settings.' };
      return resolveProvider({ ...settings, providers: [{ ...active, model: flags.model! }] }, secrets);
    }
    if (!flags.model) return { ok: false, configured: false, reason: '--base-url needs --model too.' };
    const config: ProviderConfig = {
      id: 'cli',
      name: 'the --base-url server',
      kind: 'openai-compatible',
      baseURL: flags.baseURL,
      model: flags.model,
      ...(flags.apiKeySecret ? { apiKeySecret: flags.apiKeySecret } : {}),
    };
    return resolveProvider({ ...settings, providers: [config], activeProviderId: config.id }, secrets);
  };
}

/** --base-url is checked before anything starts: a bad one would retry, then leave a stray session. */
export function checkBaseUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new UsageError(`--base-url "${value}" is not a server address. Give it with http:// or https://, e.g. --base-url http://127.0.0.1:11434/v1`);
  }
  return value;
}

/** The keychain secret this run's provider needs, if any. */
function neededKeySecret(flags: ChatFlags, settings: Settings): string | undefined {
  if (flags.baseURL) return flags.apiKeySecret;
  return settings.providers.find((p) => p.id === settings.activeProviderId)?.apiKeySecret;
}

/**
 * Without a system keyring the stored key cannot be read: say so and offer to take the key on
 * the terminal for this run only (kept in memory, never written). False: the user gave none.
 */
async function offerKeyForThisRun(name: string, secrets: SecretStore, approver: TerminalApprover, io: CliIO): Promise<boolean> {
  const status = await secrets.status();
  if (status.available) return true;
  io.stderr.write(`tooldesk chat: ${status.problem}\n`);
  const key = (await approver.question(`Type the API key for ${name} to use it for this run only (it is not saved; empty to stop): `, { secret: true }))?.trim();
  if (!key) {
    io.stderr.write(`tooldesk chat: no API key for ${name}; nothing was sent.\n`);
    return false;
  }
  secrets.useSessionFallback();
  await secrets.set(name, key);
  return true;
}

export const chatCommand: Command = {
  name: 'chat',
  summary: 'Send one message and stream the answer (tools and approvals included)',
  usage: [
    'Usage: tooldesk chat "MESSAGE" [--session ID] [--base-url URL --model M [--api-key-secret NAME]] [--yes] [--permissions LEVEL] [--toolset NAME] [--json]',
    '',
    'Runs one turn: the model may call your enabled tools (tooldesk tools enable GROUP) until it',
    'answers. The answer streams to stdout; tool calls, approvals and notices go to stderr.',
    'Without any provider, "/tool_name {json}" still runs a tool: tooldesk chat \'/ReadVar {"name":"x"}\'.',
    '',
    '  --session ID          continue that session (default: a new one; its id is printed on stderr)',
    '  --base-url URL        use this OpenAI-compatible server for this run (e.g. http://127.0.0.1:11434/v1)',
    '  --model M             the model (with --base-url, or to override the active provider\'s model)',
    '  --api-key-secret NAME the keychain secret holding the server\'s API key (with --base-url)',
    '  --yes                 approve every tool call (once) without asking (deny rules still deny)',
    '  --permissions LEVEL   this chat\'s permission level: ask, default, read-only-auto, trusted',
    '  --toolset NAME        use the tool set NAME (`tooldesk toolset list`): its tools, rules and level',
    '  --json                print the session events as JSON lines on stdout instead',
    '',
    'With --session ID, "/calls" lists the session\'s tool calls, numbered, and "/again [N]" runs the',
    'last one (or number N) again with the arguments it ran with, approval as usual; the model sees the',
    'new result on its next turn. "/continue" goes on with a turn Tooldesk was stopped in the middle',
    'of (the calls it left are asked again first); a chat resumed with such a turn says so.',
    '',
    'Approvals are asked on the terminal: y(es once), s(ession), a(lways), e(dit arguments), n(o) —',
    '"n: reason" tells the model why. "e" opens $VISUAL/$EDITOR on the arguments when stdin is a',
    'terminal, else reads one line of JSON; they are checked against the tool\'s schema (asked again',
    'when invalid), the call runs with them and the model is told they changed.',
    'Without a system keyring the provider\'s API key is asked too, for this run only.',
    'Exit status: 0 when the model answered, 1 on an error, an abort or the step limit.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['session', 'base-url', 'model', 'api-key-secret', 'permissions', 'toolset'], booleans: ['yes', 'json'] });
    const text = args.positionals.join(' ').trim();
    if (!text) throw new UsageError('missing the message to send');
    const level = option(args, 'permissions');
    if (level !== undefined && !PERMISSION_LEVELS.includes(level as PermissionLevel)) throw new UsageError(`--permissions must be one of ${PERMISSION_LEVELS.join(', ')} (got "${level}")`);
    const toolSet = option(args, 'toolset');
    const json = flag(args, 'json');
    const yes = flag(args, 'yes');
    const flags: ChatFlags = {};
    const baseURL = option(args, 'base-url');
    const model = option(args, 'model');
    const apiKeySecret = option(args, 'api-key-secret');
    if (baseURL) flags.baseURL = checkBaseUrl(baseURL);
    if (model) flags.model = model;
    if (apiKeySecret) flags.apiKeySecret = apiKeySecret;

    const provider = cliProviderResolver(flags);
    const runtime = await openCliRuntime(io, { tools: { args }, ...(provider ? { provider } : {}) });
    const { settings, secrets } = runtime;
    let manager: SessionManager;
    try {
      manager = await runtime.sessions();
    } catch (error) {
      await runtime.close();
      throw error;
    }
    const diagnostics = (await runtime.tools()).source.diagnostics();
    for (const d of diagnostics.filter((d) => d.severity === 'error')) io.stderr.write(`tooldesk: ${formatDiagnostic(d)}\n`);
    const approver = new TerminalApprover(io.stdin, io.stderr, {
      env: io.env,
      checkArgs: (tool, toolArgs) => session?.checkToolArgs(tool, toolArgs) ?? { ok: true },
    });
    const printer = humanPrinter(io);
    const onSigint = () => session?.abort();
    const onStdoutError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') session?.abort();
    };
    let session: ReturnType<SessionManager['open']> | undefined;
    try {
      const keyName = parseSlashCommand(text) && parseCliChatCommand(text)?.kind !== 'continue' ? undefined : neededKeySecret(flags, settings.get());
      if (keyName && !(await offerKeyForThisRun(keyName, secrets, approver, io))) return 1;
      const id = option(args, 'session');
      const local = parseCliChatCommand(text);
      if (local?.kind === 'error') {
        io.stderr.write(`tooldesk chat: ${local.message}\n`);
        return 1;
      }
      if (local && !id) {
        const what = local.kind === 'continue' ? 'interrupted turn to continue' : `tool calls to ${local.kind === 'calls' ? 'list' : 'run again'}`;
        io.stderr.write(`tooldesk chat: /${local.kind} needs --session ID: the session whose ${what} (see \`tooldesk sessions list\`)\n`);
        return 1;
      }
      if (id && !manager.exists(id)) {
        io.stderr.write(`tooldesk chat: no session "${id}" (see \`tooldesk sessions list\`)\n`);
        return 1;
      }
      if (toolSet && !findToolSet(settings.get(), toolSet)) {
        const known = (settings.get().toolSets ?? []).map((s) => s.name);
        io.stderr.write(`tooldesk chat: no tool set "${toolSet}"${known.length ? ` (there are: ${known.join(', ')})` : ''}; \`tooldesk toolset add NAME ITEM…\` makes one\n`);
        return 1;
      }
      const set = toolSet ? findToolSet(settings.get(), toolSet) : undefined;
      const absent = set?.skills?.length ? absentSkillsWarning(set, (await runtime.skills()).scope().ids()) : undefined;
      if (absent) io.stderr.write(`tooldesk: warning: ${absent}\n`);
      session = id ? manager.open(id) : manager.create();
      if (level || toolSet) session.setChatSettings({ ...session.chatSettings(), ...(level ? { permissions: level as PermissionLevel } : {}), ...(toolSet ? { toolSet } : {}) });
      for (const warning of manager.warnings.get(session.id) ?? []) io.stderr.write(`tooldesk: warning: ${warning}\n`);
      const current = session;
      current.onEvent((event) => {
        if (json) io.stdout.write(`${JSON.stringify(event)}\n`);
        else printer.onEvent(event);
        if (event.type === 'approval.requested') {
          const answer = yes ? Promise.resolve({ decision: 'once' as const }) : approver.ask(event.request);
          void answer.then((decision) => current.answerApproval(event.request.id, decision));
        }
      });
      process.once('SIGINT', onSigint);
      // `tooldesk chat … | head`: the reader went away; stop the turn instead of crashing.
      io.stdout.on('error', onStdoutError);
      const interrupted = current.interruption();
      if (interrupted && local?.kind !== 'continue') {
        io.stderr.write(`tooldesk chat: session ${current.id} was interrupted (${interruptionCause(interrupted)}); \`tooldesk chat --session ${current.id} /continue\` goes on from there.\n`);
      }
      if (local && local.kind !== 'continue') {
        const calls = sessionCalls(current.messages());
        if (local.kind === 'calls') {
          if (json) for (const [i, c] of calls.entries()) io.stdout.write(`${JSON.stringify({ n: i + 1, callId: c.callId, toolName: c.toolName, args: c.result.editedArgs ?? c.args ?? {}, status: c.result.status, ...(c.rerunOf ? { rerunOf: c.rerunOf } : {}) })}\n`);
          else if (calls.length) io.stdout.write(`${formatCalls(calls)}\n`);
          else io.stderr.write(`tooldesk chat: session ${current.id} has no tool calls yet\n`);
          return 0;
        }
        const chosen = local.n === undefined ? calls.at(-1) : calls[local.n - 1];
        if (!chosen) {
          io.stderr.write(`tooldesk chat: ${calls.length === 0 ? `session ${current.id} has no tool calls to run again` : `no call #${local.n}: /calls lists ${calls.length}`}\n`);
          return 1;
        }
        const result = await current.rerunToolCall(chosen.callId);
        if (!json) {
          printer.finish();
          if (result.status === 'SUCCESS') io.stdout.write(`${result.finalText}\n`);
          io.stderr.write(`session ${current.id}\n`);
        }
        return result.status === 'SUCCESS' ? 0 : 1;
      }
      const sent = local?.kind === 'continue' ? current.continueTurn() : current.send(text);
      if (!sent.ok) {
        io.stderr.write(`tooldesk chat: ${sent.error.message}\n`);
        return 1;
      }
      const outcome = await sent.done;
      if (!json) {
        // A hand-run tool (/tool {json}) has no model answer: its result is the output.
        const last = current.messages().at(-1);
        if (!printer.streamedText && last?.role === 'tool') printer.out(`${last.content}\n`);
        printer.finish();
        if (outcome.error) io.stderr.write(`tooldesk chat: ${outcome.error.message}\n`);
        if (outcome.error?.name === 'NoProvider') {
          for (const found of await detectLocalProviders({ timeoutMs: 300 })) {
            const model = found.models[0] ?? 'MODEL';
            io.stderr.write(`${found.provider.name} is running: try tooldesk chat --base-url ${found.provider.baseURL} --model ${model} "${text}"\n`);
          }
        } else if (outcome.stopReason === 'aborted') io.stderr.write('tooldesk chat: aborted\n');
        io.stderr.write(`session ${current.id}\n`);
      }
      return outcome.stopReason === 'stop' || outcome.stopReason === 'length' ? 0 : 1;
    } finally {
      process.off('SIGINT', onSigint);
      // The stdout error listener stays: a late write after EPIPE must not crash the exit.
      approver.close();
      await runtime.close();
    }
  },
};
