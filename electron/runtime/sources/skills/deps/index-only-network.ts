// The network of a dependency install: the package index pip is configured with, nothing else.
// bubblewrap can switch a process's network on or off but cannot filter it by host, so the step
// runs with its network off (a namespace of its own, loopback only) and reaches the outside
// through one door: a forwarder inside the sandbox (127.0.0.1:PORT, the proxy pip is told to
// use, also for the pips that build isolation starts) relays each connection over a Unix socket
// bound into the sandbox to an HTTP proxy here, which opens only CONNECT tunnels and plain HTTP
// requests to the index's host:port pairs and answers 403 to anything else. Code that a package
// build runs can do no better: the namespace has no other way out.
import { writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

export interface IndexOnlyNetwork {
  /** Shell lines that start the forwarder and export TD_PROXY (the proxy's URL) and PIP_PROXY. */
  prelude: string;
  /** Shell lines that stop the forwarder (run after the step, keeping its status). */
  epilogue: string;
  /** host:port pairs something in the step asked for and was refused. */
  refused: string[];
  close(): Promise<void>;
}

// Runs inside the sandbox with the sandbox's Python (-I -S: nothing from the step's folders).
const FORWARDER = `
import os, socket, sys, threading
path, port_file = sys.argv[1], sys.argv[2]
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(64)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.getsockname()[1]))
os.rename(port_file + ".tmp", port_file)
def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass
def serve(client):
    upstream = socket.socket(socket.AF_UNIX)
    try:
        upstream.connect(path)
    except OSError:
        client.close()
        return
    threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
    pump(upstream, client)
while True:
    conn, _ = server.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
`;

/** Starts the proxy on `dir/index-proxy.sock` (dir is bound writable into the sandbox) for `python`. */
export async function indexOnlyNetwork(dir: string, python: string, allow: readonly string[]): Promise<IndexOnlyNetwork> {
  const socketPath = join(dir, 'index-proxy.sock');
  const portFile = join(dir, 'index-proxy.port');
  writeFileSync(join(dir, 'index-forwarder.py'), FORWARDER);
  const refused: string[] = [];
  const { server, sockets } = allowListProxy(new Set(allow.map((a) => a.toLowerCase())), refused);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return {
    prelude: [
      `${q(python)} -I -S ${q(join(dir, 'index-forwarder.py'))} ${q(socketPath)} ${q(portFile)} & TD_FORWARDER=$!`,
      `i=0; while [ ! -s ${q(portFile)} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`,
      `export TD_PROXY="http://127.0.0.1:$(cat ${q(portFile)})"; export PIP_PROXY="$TD_PROXY"`,
    ].join('\n'),
    epilogue: 'kill $TD_FORWARDER 2>/dev/null',
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function allowListProxy(allowed: Set<string>, refused: string[]): { server: Server; sockets: Set<Socket> } {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = createServer((client) => {
    track(client);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 64 * 1024) client.destroy();
        return;
      }
      client.off('data', onData);
      const request = requestTarget(head.subarray(0, end).toString('latin1'));
      if (!request || !allowed.has(request.hostPort.toLowerCase())) {
        if (request) refused.push(request.hostPort);
        client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      const { host, port } = splitHostPort(request.hostPort);
      const upstream = connect({ host, port });
      track(upstream);
      upstream.once('connect', () => {
        if (request.line) upstream.write(Buffer.concat([Buffer.from(request.line, 'latin1'), head.subarray(head.indexOf('\r\n'))]));
        else {
          client.write('HTTP/1.1 200 Connection established\r\n\r\n');
          const rest = head.subarray(end + 4);
          if (rest.length) upstream.write(rest);
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      upstream.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
    };
    client.on('data', onData);
  });
  return { server, sockets };
}

/** CONNECT host:port, or an absolute-form request (`line`: its request line in origin form). */
function requestTarget(head: string): { hostPort: string; line?: string } | undefined {
  const [method, target, version] = (head.split('\r\n')[0] ?? '').split(' ');
  if (!method || !target || !version) return undefined;
  if (method === 'CONNECT') return { hostPort: target };
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:') return undefined;
  return { hostPort: `${url.hostname.replace(/^\[|\]$/g, '')}:${url.port || '80'}`, line: `${method} ${url.pathname}${url.search} ${version}` };
}

function splitHostPort(hostPort: string): { host: string; port: number } {
  const at = hostPort.lastIndexOf(':');
  return { host: hostPort.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(hostPort.slice(at + 1)) };
}
