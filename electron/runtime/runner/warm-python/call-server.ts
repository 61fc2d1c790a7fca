// Where a warm call's streams reach the app: a unix socket in a private folder (bound read-only
// into the sandbox, which is enough to connect to it). Each call's process connects once per
// stream and names it with a header: the call's random token (32 hex) and a one-letter tag
// (0 stdin, 1 stdout, 2 stderr, 3 result channel). A connection with an unknown token
// is dropped, so only the call that was told its token gets its streams.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HEADER_BYTES = 33;

interface Waiting {
  tags: Set<string>;
  got: Map<string, Socket>;
  resolve: (sockets: Map<string, Socket>) => void;
}

export class CallServer {
  private readonly waiting = new Map<string, Waiting>();

  private constructor(
    private readonly server: Server,
    readonly dir: string,
    readonly path: string,
  ) {}

  /** Listens on a fresh socket. Contract: never throws; `{ error }` says why it could not. */
  static async start(): Promise<CallServer | { error: string }> {
    let dir: string;
    try {
      // Short: a unix socket path is limited to 107 bytes.
      dir = mkdtempSync(join(tmpdir().length < 60 ? tmpdir() : '/tmp', 'tdz-'));
    } catch (error) {
      return { error: `no folder for the fork-server's socket: ${(error as Error).message}` };
    }
    const path = join(dir, 's');
    const server = createServer({ allowHalfOpen: false });
    const self = new CallServer(server, dir, path);
    server.on('connection', (socket) => self.accept(socket));
    return await new Promise((resolve) => {
      server.once('error', (error) => {
        rmSync(dir, { recursive: true, force: true });
        resolve({ error: `the fork-server's socket could not listen: ${error.message}` });
      });
      server.listen(path, () => resolve(self));
    });
  }

  /**
   * The sockets of the call with `token`, once all `tags` have connected. `cancel()` drops the
   * wait (and any socket already in); the promise then resolves with what had arrived.
   */
  expect(token: string, tags: string[]): { sockets: Promise<Map<string, Socket>>; cancel(): void } {
    let resolve!: (sockets: Map<string, Socket>) => void;
    const sockets = new Promise<Map<string, Socket>>((r) => (resolve = r));
    const waiting: Waiting = { tags: new Set(tags), got: new Map(), resolve };
    this.waiting.set(token, waiting);
    return {
      sockets,
      cancel: () => {
        if (this.waiting.get(token) !== waiting) return;
        this.waiting.delete(token);
        for (const socket of waiting.got.values()) socket.destroy();
        resolve(new Map());
      },
    };
  }

  /** The listening socket alone does not keep the app alive (a call's own sockets do). */
  unref(): void {
    this.server.unref();
  }

  close(): void {
    for (const token of [...this.waiting.keys()]) this.waiting.get(token)?.resolve(new Map());
    this.waiting.clear();
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private accept(socket: Socket): void {
    socket.on('error', () => {});
    let header = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), 5000);
    timer.unref();
    const onData = (chunk: Buffer) => {
      header = Buffer.concat([header, chunk]);
      if (header.length < HEADER_BYTES) return;
      socket.off('data', onData);
      socket.pause();
      clearTimeout(timer);
      const rest = header.subarray(HEADER_BYTES);
      if (rest.length > 0) socket.unshift(rest);
      const token = header.subarray(0, 32).toString('latin1');
      const tag = header.subarray(32, 33).toString('latin1');
      const waiting = this.waiting.get(token);
      if (!waiting || !waiting.tags.has(tag) || waiting.got.has(tag)) return void socket.destroy();
      waiting.got.set(tag, socket);
      if (waiting.got.size === waiting.tags.size) {
        this.waiting.delete(token);
        waiting.resolve(waiting.got);
      }
    };
    socket.on('data', onData);
  }
}
