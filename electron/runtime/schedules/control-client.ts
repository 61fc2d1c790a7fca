// The CLI's side of control-server.ts: when a live process owns the home's schedules, ask it.
// Returns undefined when nobody owns them (the command then works in its own process).
import { request } from 'node:http';
import type { InboxAnswer, ScheduleRun } from '../../../shared/schedules.ts';
import { liveHolder } from './scheduler-lock.ts';

export class ControlError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export type ControlRequest = { path: '/run'; body: { name: string } } | { path: '/run-due'; body: Record<string, never> } | { path: '/answer'; body: { id: string } & InboxAnswer };

/** The owner's answer, or undefined when no live process with an endpoint owns the home. */
export async function askOwner<T extends ScheduleRun | ScheduleRun[]>(home: string, request: ControlRequest): Promise<T | undefined> {
  const holder = liveHolder(home);
  if (!holder?.port || !holder.token || holder.pid === process.pid) return undefined;
  let text: string;
  try {
    text = await post(holder.port, holder.token, request.path, JSON.stringify(request.body));
  } catch (error) {
    throw new ControlError('OwnerUnreachable', `process ${holder.pid} owns the schedules of this home but did not answer (${(error as Error).message}); try again, or stop it`);
  }
  const body = JSON.parse(text) as { value?: T; error?: { name: string; message: string } };
  if (body.error) throw new ControlError(body.error.name, body.error.message);
  return body.value;
}

/** node:http rather than fetch: fetch gives up on headers after 5 minutes, and a run may take longer. */
function post(port: number, token: string, path: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
