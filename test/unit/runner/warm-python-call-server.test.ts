// The warm call server hands a call's streams only to the call that knows its token, and the
// /proc lookups find a process's pid on this machine from its pid inside a namespace.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CallServer } from '../../../electron/runtime/runner/warm-python/call-server.ts';
import { childPids, childWithInnerPid, descendantWithInnerPid, innermostPid } from '../../../electron/runtime/runner/warm-python/host-pid.ts';

const servers: CallServer[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function server(): Promise<CallServer> {
  const started = await CallServer.start();
  if ('error' in started) throw new Error(started.error);
  servers.push(started);
  return started;
}

function dial(path: string, header: string, body = ''): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(path, () => {
      socket.write(header + body);
      resolve(socket);
    });
    socket.on('error', () => {});
  });
}

const read = (socket: Socket) => new Promise<string>((resolve) => {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.on('end', () => resolve(text));
  socket.resume();
});

describe.skipIf(process.platform === 'win32')('warm Python call server', () => {
  it("routes a call's connections by token and tag, keeping what follows the header", async () => {
    const s = await server();
    const token = 'a'.repeat(32);
    const wait = s.expect(token, ['0', '1']);
    const one = await dial(s.path, `${token}1`, 'printed');
    await dial(s.path, `${token}0`);
    const sockets = await wait.sockets;
    expect([...sockets.keys()].sort()).toEqual(['0', '1']);
    const text = read(sockets.get('1')!);
    one.end();
    expect(await text).toBe('printed');
  });

  it('drops a connection with an unknown token, an unexpected tag, or a tag twice', async () => {
    const s = await server();
    const token = 'b'.repeat(32);
    const wait = s.expect(token, ['0', '1']);
    const closed = (socket: Socket) => new Promise<boolean>((resolve) => socket.on('close', () => resolve(true)));
    expect(await closed(await dial(s.path, `${'c'.repeat(32)}0`))).toBe(true);
    expect(await closed(await dial(s.path, `${token}3`))).toBe(true);
    await dial(s.path, `${token}0`);
    expect(await closed(await dial(s.path, `${token}0`))).toBe(true);
    wait.cancel();
    expect((await wait.sockets).size).toBe(0);
  });
});

describe.skipIf(process.platform !== 'linux')('pids across namespaces (/proc)', () => {
  it('finds this process and its children outside any namespace', () => {
    expect(innermostPid(process.pid)).toBe(process.pid);
    expect(descendantWithInnerPid(process.pid, process.pid)).toBe(process.pid);
    expect(childWithInnerPid(process.pid, 999_999_999)).toBeUndefined();
    expect(Array.isArray(childPids(process.pid))).toBe(true);
  });
});
