// The scheduler owner's door for the CLI: `schedule run`, `schedule run-due` and `inbox approve|
// reject` made in another process go to the process that owns the home's schedules, so a run is
// never started twice and a paused turn is answered where it waits. HTTP on 127.0.0.1 (random
// port), a random bearer token; both are in the lock file, which only the user can read. Refused:
// another Host (DNS rebinding), any Origin (a web page), a wrong token. Each request answers when
// the run it touched ends or pauses; errors cross as `{error: {name, message}}`.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InboxAnswer, ScheduleRun } from '../../../shared/schedules.ts';
import { createAccessToken, tokensMatch } from '../base/access-token.ts';
import { isAllowedHost } from '../base/loopback-guard.ts';

export interface ControlHandlers {
  run(name: string): Promise<ScheduleRun>;
  runDue(): Promise<ScheduleRun[]>;
  answer(id: string, answer: InboxAnswer): Promise<ScheduleRun>;
}

export interface ControlServer {
  port: number;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

export async function startControlServer(handlers: ControlHandlers): Promise<ControlServer> {
  const token = createAccessToken();
  const server = createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const port = (server.address() as AddressInfo).port;
    if (!isAllowedHost(request.headers.host, port) || request.headers.origin !== undefined) return reply(403, { error: { name: 'Forbidden', message: 'not from this machine\'s tooldesk command' } });
    if (!tokensMatch(token, /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1])) return reply(401, { error: { name: 'Unauthorized', message: 'wrong token' } });
    if (request.method !== 'POST') return reply(405, { error: { name: 'MethodNotAllowed', message: 'POST only' } });
    void readJson(request)
      .then((body) => route(handlers, request.url ?? '', body))
      .then(
        (value) => reply(200, { value }),
        (error: Error) => reply(error.name === 'ScheduleError' || error.name === 'BadRequest' ? 400 : 500, { error: { name: error.name, message: error.message } }),
      );
  });
  // A run may wait a long time for its end; the CLI waits with it.
  server.requestTimeout = 0;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function route(handlers: ControlHandlers, url: string, body: Record<string, unknown>): Promise<unknown> {
  const text = (key: string): string => {
    if (typeof body[key] !== 'string') throw Object.assign(new Error(`"${key}" must be a string`), { name: 'BadRequest' });
    return body[key] as string;
  };
  switch (url) {
    case '/run':
      return handlers.run(text('name'));
    case '/run-due':
      return handlers.runDue();
    case '/answer': {
      const decision = text('decision');
      if (decision !== 'approve' && decision !== 'reject') throw Object.assign(new Error('"decision" must be approve or reject'), { name: 'BadRequest' });
      const answer: InboxAnswer = { decision, ...(typeof body.reason === 'string' ? { reason: body.reason } : {}), ...(body.content && typeof body.content === 'object' ? { content: body.content as InboxAnswer['content'] } : {}) };
      return handlers.answer(text('id'), answer);
    }
    default:
      return Promise.reject(Object.assign(new Error(`no such request ${url}`), { name: 'BadRequest' }));
  }
}

function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) request.destroy(new Error('request too large'));
      else chunks.push(chunk);
    });
    request.on('error', reject);
    request.on('end', () => {
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
        resolve(parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {});
      } catch {
        reject(Object.assign(new Error('the body is not JSON'), { name: 'BadRequest' }));
      }
    });
  });
}
