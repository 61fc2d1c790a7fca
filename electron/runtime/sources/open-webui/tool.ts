// An Open WebUI Tools method as a Tool: each call runs resources/python/run_openwebui.py (on the
// warm runner when it can, under the sandbox), which builds a fresh Tools(), sets its valves,
// fills the injected `__x__` arguments and reports events and an envelope.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunResult } from '../../runner/types.ts';
import type { Tool, ToolContext, ToolConversation, ToolRunResult } from '../../tools/types.ts';
import type { CachedTool } from '../cached-modules/cache.ts';
import { moduleFailures, moduleToolFields, parseEnvelope, type ModuleEnvelope } from '../cached-modules/module-tool.ts';
import { folderPreloadSet } from '../../runner/warm-python/preload-set.ts';
import { helperScript } from '../process/helper-scripts.ts';
import { PYTHON_HELPER_FLAGS } from '../process/python-flags.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import { runToolProcess, stderrTail, type ProcessReading, type ResultBase } from '../process/run-tool-process.ts';
import type { SourceContext, SourceEntry } from '../types.ts';
import { startAskEndpoint } from './ask-server.ts';
import { stageCallFiles, type OpenWebUiFile } from './call-files.ts';
import { htmlResponseApp } from './html-app.ts';
import { foldEvents, notificationOf, progressLine, type OpenWebUiEvent } from './events.ts';
import { callValves, readValves } from './valves.ts';

/** At most this many of the chat's messages reach `__messages__` (the newest ones). */
export const MAX_INJECTED_MESSAGES = 50;

interface OpenWebUiEnvelope extends ModuleEnvelope {
  events?: OpenWebUiEvent[];
  html?: string;
}

/** `method`: the method to call when the tool's name was qualified (two toolkits define it). */
export function createOpenWebUiTool(cached: CachedTool, entry: SourceEntry, group: string, ctx: SourceContext, asks = false, method = cached.function.name): Tool {
  const fields = moduleToolFields(cached, entry, 'a `timeout` is not part of Open WebUI files: set limits.toolTimeoutMs');
  return {
    ...fields,
    async execute(args, call) {
      let saved;
      try {
        saved = (await readValves(ctx.home))[group];
      } catch (error) {
        return { status: 'ERROR', error: (error as Error).message };
      }
      const valves = callValves(group, saved);
      const marker = `TOOLDESK-RESULT-${randomBytes(12).toString('hex')}`;
      const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
      const runner = helperScript.openWebUiRunner();
      const conversation = call.conversation?.();
      const staged = await stageCallFiles(conversation?.files);
      const request = {
        file: entry.path,
        method,
        marker,
        args,
        valves: valves.valves,
        userValves: valves.userValves,
        secretEnv: valves.secretEnv,
        ...injectedContext(group, call, conversation, staged?.files ?? []),
      };
      const events = eventReader(marker, call);
      // Only a method that takes __event_call__ can ask, and only where someone can answer.
      const ask = asks && ctx.interactions ? await startAskEndpoint(group, fields.definition.function.name, call, ctx.interactions, call.signal) : undefined;
      if (ask) Object.assign(request, { ask: { url: ask.url, token: ask.token } });
      const result = await runToolProcess(ctx, call, {
        spec: {
          command: python,
          args: [...PYTHON_HELPER_FLAGS, runner],
          cwd: dirname(entry.path),
          stdin: JSON.stringify(request),
          env: { ...ctx.env, PYTHONIOENCODING: 'utf-8', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' },
          resultChannel: true,
          onStdout: events.feed,
          // The warm fork-server keeps one sandbox; a call with its own files folder starts cold.
          ...(staged ? {} : { python: { kind: 'script' as const, file: runner, preload: folderPreloadSet(dirname(entry.path), ctx) } }),
        },
        ...reading(marker, fields.timeoutMessage),
        toolName: cached.function.name,
        toolDir: dirname(entry.path),
        ...(staged?.dir ? { readOnlyPaths: [staged.dir] } : {}),
        secrets: valves.secrets,
        timeoutMs: fields.timeoutMs ?? ctx.toolTimeoutMs,
      }).finally(() => {
        ask?.close();
        return staged?.remove();
      });
      if (staged?.missing.length) result.warnings = [...(result.warnings ?? []), `Attached files not handed to the tool (no longer readable): ${staged.missing.join(', ')}`];
      return finish(result, ctx, call, group);
    },
  };
}

/** `__user__`, `__metadata__`, `__messages__`, `__files__`, `__model__` and `__id__` of a call. */
function injectedContext(group: string, call: ToolContext, conversation: ToolConversation | undefined, files: OpenWebUiFile[]) {
  const id = 'local';
  let name = 'user';
  try {
    name = userInfo().username || name;
  } catch {
    // no passwd entry: keep the generic name
  }
  return {
    user: { id, name, email: '', role: 'admin' },
    metadata: { chat_id: call.sessionId, session_id: call.sessionId, message_id: call.callId, user_id: id, tool_ids: [group], files, ...(conversation?.model ? { model: conversation.model } : {}) },
    messages: (conversation?.messages ?? []).slice(-MAX_INJECTED_MESSAGES),
    files,
    model: conversation?.model ?? null,
    id: group,
  };
}

/** Streams `MARKER event JSON` lines of stdout into the call's progress line. */
function eventReader(marker: string, call: ToolContext) {
  let pending = '';
  const prefix = `${marker} event `;
  return {
    feed(chunk: string) {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith(prefix)) continue;
        try {
          const event = JSON.parse(line.slice(prefix.length)) as OpenWebUiEvent;
          const progress = progressLine(event);
          const notification = notificationOf(event);
          if (progress) call.onUpdate({ text: `${progress}\n`, ...(notification ? { notification } : {}) });
        } catch {
          // a torn line: the envelope still lists the event
        }
      }
    },
  };
}

function reading(marker: string, timedOut: (timeoutMs: number) => string): ProcessReading {
  const eventLine = new RegExp(`^\\n?${marker} event .*$\\n?`, 'gm');
  const split = (run: RunResult) => {
    const at = run.channel?.trim() ? -1 : run.stdout.lastIndexOf(`\n${marker}\n`);
    return at === -1 ? { printed: run.stdout, channel: run.channel } : { printed: run.stdout.slice(0, at), channel: run.stdout.slice(at + marker.length + 2) };
  };
  return {
    ...moduleFailures('Python', timedOut),
    logs: (run) => [split(run).printed.replace(eventLine, ''), run.stderr].filter((s) => s.trim()).join('\n'),
    read: (run, base) => {
      const envelope = parseEnvelope(split(run).channel?.trim().split('\n').at(-1)) as OpenWebUiEnvelope | undefined;
      const why = run.channelTruncated ? 'its result was larger than the output cap' : `it exited with ${run.signal ?? `code ${run.exitCode}`} before reporting a result`;
      if (!envelope) return { status: 'ERROR', error: `The tool failed: ${why}. ${stderrTail(run.stderr)}`.trim(), ...base };
      return envelopeResult(envelope, base);
    },
  };
}

// The HTML of an HTMLResponse result travels from read() to finish(), which writes it to a file.
const HTML = Symbol('html');

function envelopeResult(envelope: OpenWebUiEnvelope, base: ResultBase): ToolRunResult {
  const folded = foldEvents(envelope.events ?? []);
  const warnings = [...(base.warnings ?? []), ...(envelope.warnings ?? [])];
  if (folded.ignored.length) warnings.push(`Open WebUI events not shown here: ${folded.ignored.join(', ')}`);
  const notes = folded.notifications.map((n) => `[${n.type}] ${n.content}`);
  const logs = [envelope.success ? '' : envelope.traceback?.trim(), base.logs, notes.length ? `Notifications:\n${notes.join('\n')}` : ''].filter(Boolean).join('\n');
  const common = { ...(warnings.length ? { warnings } : {}), ...(logs ? { logs } : {}) };
  if (!envelope.success) return { status: 'ERROR', error: envelope.error ?? 'The tool failed', data: { traceback: envelope.traceback }, ...common };
  const data = envelope.result ?? null;
  const own = typeof data === 'string' ? data : data === null ? '' : JSON.stringify(data, null, 2);
  const result: ToolRunResult & { [HTML]?: string } = {
    status: 'SUCCESS',
    data,
    ...common,
    ...(folded.appended ? { formattedText: [own, folded.appended].filter(Boolean).join('\n\n') } : {}),
    ...(folded.images.length ? { images: folded.images } : {}),
  };
  if (typeof envelope.html === 'string') result[HTML] = envelope.html;
  return result;
}

/**
 * An HTMLResponse result is saved as a file (a link for the terminal and for pages too large to
 * keep) and shown in the chat like an MCP App; the model reads the text, never the HTML.
 */
async function finish(result: ToolRunResult & { [HTML]?: string }, ctx: SourceContext, call: ToolContext, group: string): Promise<ToolRunResult> {
  const html = result[HTML];
  if (html === undefined) return result;
  delete result[HTML];
  const folder = join(ctx.cacheDir, 'open-webui-html');
  const file = join(folder, `${call.callId.replace(/[^A-Za-z0-9_-]/g, '_') || 'call'}-${randomBytes(4).toString('hex')}.html`);
  try {
    await mkdir(folder, { recursive: true });
    await writeFile(file, html, 'utf8');
  } catch (error) {
    return { ...result, status: 'ERROR', error: `The tool returned HTML, but it could not be saved to ${file}: ${(error as Error).message}` };
  }
  const link = pathToFileURL(file).href;
  const saved = `saved as ${link} — open it in a browser to see it.`;
  const shown = htmlResponseApp(html, group, call.callId, '');
  const text = `The tool returned an HTML page (${html.length} characters)${shown ? ', shown to the user in the chat; also' : ','} ${saved}`;
  const formattedText = [text, result.formattedText].filter(Boolean).join('\n\n');
  return { ...result, data: shown ? { ...shown, text: formattedText } : { html: link }, formattedText };
}
