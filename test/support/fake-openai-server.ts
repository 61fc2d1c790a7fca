// A fake OpenAI-compatible server for tests, benchmarks and manual runs: a real HTTP server on
// 127.0.0.1 (random port) serving POST /v1/chat/completions (SSE streaming and plain JSON) and
// GET /v1/models, answering each chat request with the next scripted turn.
//
//   const server = await startFakeOpenAI({ turns: [fakeTurn.toolCall('echo', { text: 'hi' }), fakeTurn.text('done')] });
//   // point a client at server.url (".../v1"), then assert on server.requests[i].body
//   await server.close();
//
// Or a script function deciding from the request: startFakeOpenAI({ script: (req, i) => turn }).
// Standalone (manual/browser mode), with a demo script that calls the first offered tool:
//   node --import tsx test/support/fake-openai-server.ts --port 8787
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { TITLE_INSTRUCTION } from '../../electron/runtime/chat/titles/title-from-model.ts';

export interface FakeToolCall {
  /** Defaults to `call_<turn>_<index>`. */
  id?: string;
  name: string;
  /** The raw argument text the model "wrote"; may be malformed on purpose. */
  arguments: string;
}

export interface FakeTurn {
  /** Sent as `reasoning_content` deltas first (DeepSeek / vLLM style). */
  reasoning?: string;
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Default: 'tool_calls' when toolCalls, else 'stop'. */
  finishReason?: 'stop' | 'tool_calls' | 'length';
  /** Characters per text/reasoning/argument delta (default 4). Code points are never split. */
  deltaChars?: number;
  /** Explicit argument split: the lengths (in code units) of the first pieces; the rest goes in one piece. */
  argumentSplits?: number[];
  /** Interleave deltas of parallel tool calls (a0 b0 a1 b1 …) instead of one call after another. */
  interleave?: boolean;
  /** Write the SSE byte stream in pieces of this many bytes (splits lines and UTF-8 sequences). */
  byteChunk?: number;
  /** Pause between writes, ms (a slow stream). */
  delayMs?: number;
  /** Destroy the socket after this many SSE events (a stream cut mid-way). */
  cutAfterEvents?: number;
  /** An HTTP error instead of a completion (429, 500, 401 …). */
  status?: number;
  /** Seconds, sent as Retry-After with an error status. */
  retryAfter?: number;
  errorMessage?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (null for GET or non-JSON). */
  body: any;
  /** Index of the chat turn this request consumed (-1 for non-chat requests). */
  turn: number;
}

export type FakeScript = (request: RecordedRequest, turnIndex: number) => FakeTurn;

export interface FakeOpenAIOptions {
  turns?: FakeTurn[];
  script?: FakeScript;
  port?: number;
  /** Served by /v1/models. Default ['fake-model']. */
  models?: string[];
  /** Answer 404 model_not_found for a model not in `models`. */
  strictModels?: boolean;
  /**
   * Answers the runtime's chat-title requests (title-from-model.ts) with this title (a function:
   * per request, undefined for a 400). Unset: they get a 400 (the chat keeps its first-words title). Either way they use no scripted turn and
   * are kept apart from `requests` (see `titleRequests`).
   */
  title?: string | ((request: RecordedRequest) => string | undefined);
  /** Extra fields of a model's /v1/models entry, by id (e.g. `{ context_length: 32768 }`). */
  modelFields?: Record<string, Record<string, unknown>>;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
}

export interface FakeOpenAIServer {
  /** Base URL including /v1, as the openai client expects. */
  url: string;
  port: number;
  /** Every request received, in order (chat, models, anything else). */
  requests: RecordedRequest[];
  /** Chat requests only. */
  chatRequests(): RecordedRequest[];
  /** Requests for a chat's title (never in `requests`). */
  titleRequests: RecordedRequest[];
  /** Replace the script; the turn counter restarts at 0. */
  setScript(script: FakeTurn[] | FakeScript): void;
  close(): Promise<void>;
}

/** Builders for common turns. */
export const fakeTurn = {
  text: (text: string, extra: Partial<FakeTurn> = {}): FakeTurn => ({ text, ...extra }),
  reasoning: (reasoning: string, text: string, extra: Partial<FakeTurn> = {}): FakeTurn => ({ reasoning, text, ...extra }),
  toolCall: (name: string, args: unknown, extra: Partial<FakeTurn> = {}): FakeTurn => ({
    toolCalls: [{ name, arguments: JSON.stringify(args) }],
    ...extra,
  }),
  parallel: (calls: Array<{ name: string; args: unknown; id?: string }>, extra: Partial<FakeTurn> = {}): FakeTurn => ({
    toolCalls: calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.args), ...(c.id ? { id: c.id } : {}) })),
    interleave: true,
    ...extra,
  }),
  malformed: (name: string, rawArguments: string): FakeTurn => ({ toolCalls: [{ name, arguments: rawArguments }] }),
  error: (status: number, message = `fake error ${status}`, retryAfter?: number): FakeTurn => ({
    status,
    errorMessage: message,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  }),
};

/** Splits into pieces of n code points, never inside a surrogate pair. */
export function splitCodePoints(text: string, n: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += n) out.push(points.slice(i, i + n).join(''));
  return out;
}

function splitAt(text: string, lengths: number[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const len of lengths) {
    if (at >= text.length) break;
    out.push(text.slice(at, at + len));
    at += len;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** The SSE `data:` payloads of one streamed turn (without the final [DONE]). */
function streamEvents(turn: FakeTurn, model: string, turnIndex: number, includeUsage: boolean): object[] {
  const id = `chatcmpl-fake-${turnIndex}`;
  const created = Math.floor(Date.now() / 1000);
  const n = turn.deltaChars ?? 4;
  const chunk = (delta: object, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: object[] = [chunk({ role: 'assistant', content: '' })];
  if (turn.reasoning) for (const piece of splitCodePoints(turn.reasoning, n)) events.push(chunk({ reasoning_content: piece }));
  if (turn.text) for (const piece of splitCodePoints(turn.text, n)) events.push(chunk({ content: piece }));
  const calls = turn.toolCalls ?? [];
  const perCall = calls.map((call, index) => {
    const pieces = turn.argumentSplits ? splitAt(call.arguments, turn.argumentSplits) : splitCodePoints(call.arguments, n);
    const head = { index, id: call.id ?? `call_${turnIndex}_${index}`, type: 'function', function: { name: call.name, arguments: '' } };
    return [head, ...pieces.map((p) => ({ index, function: { arguments: p } }))];
  });
  if (turn.interleave) {
    const longest = Math.max(0, ...perCall.map((c) => c.length));
    for (let i = 0; i < longest; i++) for (const c of perCall) if (c[i]) events.push(chunk({ tool_calls: [c[i]] }));
  } else {
    for (const c of perCall) for (const d of c) events.push(chunk({ tool_calls: [d] }));
  }
  events.push(chunk({}, turn.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
  if (includeUsage) {
    const usage = turn.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    events.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  }
  return events;
}

function completionBody(turn: FakeTurn, model: string, turnIndex: number): object {
  const calls = turn.toolCalls ?? [];
  const usage = turn.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
  return {
    id: `chatcmpl-fake-${turnIndex}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        finish_reason: turn.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          ...(turn.reasoning ? { reasoning_content: turn.reasoning } : {}),
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((c, i) => ({
                  id: c.id ?? `call_${turnIndex}_${i}`,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sendError(res: ServerResponse, status: number, message: string, type: string, retryAfter?: number): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error: { message, type, code: type } }));
}

async function sendStream(res: ServerResponse, turn: FakeTurn, events: object[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  const cut = turn.cutAfterEvents;
  const lines = events.slice(0, cut).map((e) => `data: ${JSON.stringify(e)}\n\n`);
  if (cut === undefined) lines.push('data: [DONE]\n\n');
  const bytes = turn.byteChunk ? Buffer.from(lines.join(''), 'utf8') : Buffer.alloc(0);
  // Write boundaries: fixed byte pieces that cut lines and UTF-8 sequences; one per event for a
  // slow stream; else events batched into ~16 KB writes (tens of thousands of tiny writes would
  // make the fake server, not the client, the bottleneck of a throughput measurement).
  const pieces: Buffer[] = [];
  if (turn.byteChunk) for (let i = 0; i < bytes.length; i += turn.byteChunk) pieces.push(bytes.subarray(i, i + turn.byteChunk));
  else if (turn.delayMs) for (const line of lines) pieces.push(Buffer.from(line, 'utf8'));
  else {
    let batch: string[] = [];
    let size = 0;
    for (const line of lines) {
      batch.push(line);
      size += line.length;
      if (size >= 16 * 1024) {
        pieces.push(Buffer.from(batch.join(''), 'utf8'));
        batch = [];
        size = 0;
      }
    }
    if (batch.length) pieces.push(Buffer.from(batch.join(''), 'utf8'));
  }
  for (const piece of pieces) {
    if (res.destroyed) return;
    res.write(piece);
    if (turn.delayMs) await sleep(turn.delayMs);
    else if (turn.byteChunk) await new Promise((r) => setImmediate(r));
  }
  if (cut !== undefined) {
    await sleep(5);
    res.socket?.destroy();
    return;
  }
  res.end();
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  const models = options.models ?? ['fake-model'];
  const requests: RecordedRequest[] = [];
  const titleRequests: RecordedRequest[] = [];
  let script: FakeTurn[] | FakeScript = options.script ?? options.turns ?? [];
  let turnIndex = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: any = null;
        try {
          body = raw ? JSON.parse(raw) : null;
        } catch {
          body = null;
        }
        const path = (req.url ?? '/').split('?')[0]!;
        const record: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body, turn: -1 };
        if (body?.messages?.[0]?.content === TITLE_INSTRUCTION) {
          titleRequests.push(record);
          const title = typeof options.title === 'function' ? options.title(record) : options.title;
          if (title === undefined) return sendError(res, 400, 'fake-openai: no title configured', 'invalid_request_error');
          return sendStream(res, { text: title }, streamEvents({ text: title }, String(body.model ?? ''), -1, false));
        }
        requests.push(record);
        if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
          return sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
        }
        if (req.method === 'GET' && path === '/v1/models') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake', ...options.modelFields?.[id] })) }));
        }
        if (req.method !== 'POST' || path !== '/v1/chat/completions') return sendError(res, 404, `No route ${req.method} ${path}`, 'not_found');
        if (!body || !Array.isArray(body.messages)) return sendError(res, 400, 'messages is required', 'invalid_request_error');
        const model = String(body.model ?? '');
        if (options.strictModels && !models.includes(model)) {
          return sendError(res, 404, `The model \`${model}\` does not exist`, 'model_not_found');
        }
        const index = turnIndex++;
        record.turn = index;
        const turn = typeof script === 'function' ? script(record, index) : script[index];
        if (!turn) return sendError(res, 400, `fake-openai: no scripted turn #${index} (script has ${(script as FakeTurn[]).length})`, 'script_exhausted');
        if (turn.status !== undefined) {
          if (turn.delayMs) await sleep(turn.delayMs);
          return sendError(res, turn.status, turn.errorMessage ?? `fake error ${turn.status}`, turn.status === 429 ? 'rate_limit_exceeded' : 'server_error', turn.retryAfter);
        }
        if (body.stream) {
          const includeUsage = Boolean(body.stream_options?.include_usage);
          await sendStream(res, turn, streamEvents(turn, model, index, includeUsage));
        } else {
          if (turn.delayMs) await sleep(turn.delayMs);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(completionBody(turn, model, index)));
        }
      })().catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, `fake-openai crashed: ${String(error)}`, 'server_error');
        else res.destroy();
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    titleRequests,
    chatRequests: () => requests.filter((r) => r.turn >= 0),
    setScript(next) {
      script = next;
      turnIndex = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An example value for a JSON Schema (enough to call a tool in a demo). */
function exampleFor(schema: any): unknown {
  if (schema?.enum) return schema.enum[0];
  if (schema?.default !== undefined) return schema.default;
  switch (schema?.type) {
    case 'string':
      return 'demo';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = exampleFor(schema.properties?.[key]);
      return out;
    }
    default:
      return 'demo';
  }
}

/**
 * The standalone demo: when tools are offered and the last message is the user's, call the
 * first offered tool that is not a built-in variable tool (args from its schema); after a tool
 * result, answer quoting it.
 */
export const demoScript: FakeScript = (request) => {
  const messages: any[] = request.body.messages;
  const last = messages.at(-1);
  const tools: any[] = request.body.tools ?? [];
  if (last?.role === 'user' && tools.length > 0) {
    // Prefer the user's tools over the built-in variable tools.
    const builtin = new Set(['ReadVar', 'ListVars', 'WriteVar', 'RemoveVars']);
    const fn = (tools.find((t) => !builtin.has(t.function?.name)) ?? tools[0]).function;
    return { reasoning: `The user wrote "${String(last.content).slice(0, 60)}". I will try ${fn.name}.`, toolCalls: [{ name: fn.name, arguments: JSON.stringify(exampleFor(fn.parameters)) }] };
  }
  if (last?.role === 'tool') return { text: `The tool answered:\n\n${String(last.content).slice(0, 400)}` };
  return { text: `Fake model here. You wrote: ${String(last?.content ?? '').slice(0, 200)}` };
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--port');
  const port = at === -1 ? 8787 : Number(process.argv[at + 1]);
  const server = await startFakeOpenAI({ script: demoScript, port });
  console.log(`fake OpenAI server on ${server.url} (model "fake-model"); Ctrl-C stops it`);
  console.log(`try: TOOLDESK_HOME=$(mktemp -d) npm run -s tooldesk -- chat --base-url ${server.url} --model fake-model "hello"`);
  process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
}
