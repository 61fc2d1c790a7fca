// The real runtime in browser mode, as a child process (`tooldesk serve`), so a test can stop
// and restart it like a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface AppServer {
  /** The page URL, token included. */
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** `port: 'remembered'`: no --port, so the server takes the port (and token) of its last start. */
export async function startAppServer(options: { home: string; port?: number | 'remembered'; env?: NodeJS.ProcessEnv }): Promise<AppServer> {
  const portArgs = options.port === 'remembered' ? [] : ['--port', String(options.port ?? 0)];
  const child = spawn(process.execPath, [`${root}electron/cli/bin.mjs`, 'serve', ...portArgs, '--no-build'], {
    cwd: root,
    env: { ...process.env, ...options.env, TOOLDESK_HOME: options.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tooldesk serve printed no URL within 30 s:\n${out}`)), 30_000);
    const check = () => {
      const match = /http:\/\/127\.0\.0\.1:\d+\/\S*token=[A-Za-z0-9_-]+/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tooldesk serve exited with ${code}:\n${out}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    port: Number(new URL(url).port),
    process: child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
