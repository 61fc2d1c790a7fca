// The scheduler owner's control endpoint answers only this machine's tooldesk command: the token
// from the lock file, no web page (Origin), no other Host; errors cross as values.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startControlServer, type ControlServer } from '../../../electron/runtime/schedules/control-server.ts';
import { ScheduleError } from '../../../electron/runtime/schedules/scheduler.ts';
import type { ScheduleRun } from '../../../shared/schedules.ts';

const run = { id: 'run-abcdef', schedule: 'n', status: 'done' } as ScheduleRun;
let server: ControlServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server!.port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('control server', () => {
  it('runs, answers and reports errors for the token holder only', async () => {
    const answered: unknown[] = [];
    server = await startControlServer({
      run: async (name) => (name === 'n' ? run : Promise.reject(new ScheduleError(`no schedule "${name}"`))),
      runDue: async () => [run],
      answer: async (id, answer) => {
        answered.push([id, answer]);
        return run;
      },
    });
    const auth = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    expect(await post('/run', { name: 'n' }, auth)).toEqual({ status: 200, body: { value: run } });
    expect(await post('/run', { name: 'x' }, auth)).toEqual({ status: 400, body: { error: { name: 'ScheduleError', message: 'no schedule "x"' } } });
    expect((await post('/answer', { id: 'q-1', decision: 'reject', reason: 'no' }, auth)).status).toBe(200);
    expect(answered).toEqual([['q-1', { decision: 'reject', reason: 'no' }]]);
    expect((await post('/answer', { id: 'q-1', decision: 'maybe' }, auth)).status).toBe(400);
    expect((await post('/run-due', {}, auth)).body).toEqual({ value: [run] });

    expect((await post('/run', { name: 'n' }, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post('/run', { name: 'n' }, {})).status).toBe(401);
    expect((await post('/run', { name: 'n' }, { ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('/run', { name: 'n' }, { ...auth, host: 'evil.example' })).status).toBe(403);
  });
});
