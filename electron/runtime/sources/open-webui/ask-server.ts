// Open WebUI's `__event_call__` confirmation and input: the tool's process POSTs the event to a
// per-call HTTP endpoint on 127.0.0.1 (a random token, closed when the call ends) and waits; the
// question goes to the user as an elicitation card (in the chat of the call, or on the terminal
// of `tools run`). Confirmation answers true/false, input the typed text (None when declined).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { McpInteractions } from '../mcp/types.ts';

/** Largest event body a tool may send, bytes. */
const MAX_BODY = 64 * 1024;

export interface AskEndpoint {
  url: string;
  token: string;
  close(): void;
}

interface CallRef {
  sessionId: string;
  callId: string;
}

const text = (value: unknown, max = 4000): string => (typeof value === 'string' ? value.slice(0, max) : '');

/** The elicitation params of a confirmation or input event (exported for tests). */
export function elicitationOf(type: string, data: Record<string, unknown>): { message: string; requestedSchema: Record<string, unknown> } {
  const message = [text(data.title, 200), text(data.message)].filter(Boolean).join('\n\n') || (type === 'confirmation' ? 'Continue?' : 'Your answer:');
  if (type === 'confirmation') return { message, requestedSchema: { type: 'object', properties: {} } };
  const field: Record<string, unknown> = { type: 'string', title: text(data.title, 200) || 'Answer' };
  if (text(data.placeholder)) field.description = text(data.placeholder);
  if (text(data.value)) field.default = text(data.value);
  return { message, requestedSchema: { type: 'object', properties: { value: field }, required: ['value'] } };
}

/** The answer the tool gets for `type` from the user's response. */
export function answerOf(type: string, result: ElicitResult): unknown {
  if (type === 'confirmation') return result.action === 'accept';
  if (result.action !== 'accept') return null;
  const value = (result.content as Record<string, unknown> | undefined)?.value;
  return typeof value === 'string' ? value : value === undefined ? '' : String(value);
}

/** `tool` is named on the card (and the terminal) so the user knows which tool of `group` asks. */
export async function startAskEndpoint(group: string, tool: string, call: CallRef, interactions: McpInteractions, signal: AbortSignal): Promise<AskEndpoint> {
  const token = randomBytes(24).toString('hex');
  const expected = Buffer.from(`Bearer ${token}`);
  const server = createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const given = Buffer.from(String(request.headers.authorization ?? ''));
    if (request.method !== 'POST' || given.length !== expected.length || !timingSafeEqual(given, expected)) return reply(403, { error: 'forbidden' });
    void readBody(request).then(async (body) => {
      let event: { type?: unknown; data?: unknown };
      try {
        event = JSON.parse(body ?? '') as typeof event;
      } catch {
        return reply(400, { error: 'the event must be JSON of at most 64 KiB' });
      }
      const type = String(event.type);
      if (type !== 'confirmation' && type !== 'input') return reply(400, { error: `unsupported event type ${JSON.stringify(type)}` });
      const data = event.data && typeof event.data === 'object' ? (event.data as Record<string, unknown>) : {};
      if (!interactions.elicit) return reply(200, { answer: answerOf(type, { action: 'decline' }) });
      const params = { mode: 'form', ...elicitationOf(type, data) } as never;
      const result = await interactions.elicit({ server: group, tool, params, call, ...(type === 'confirmation' ? { confirm: true } : {}) }, signal);
      reply(200, { answer: answerOf(type, result) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  signal.addEventListener('abort', close, { once: true });
  return { url: `http://127.0.0.1:${port}/ask`, token, close };
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        resolve(null);
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(null));
  });
}
