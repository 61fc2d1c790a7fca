// Runs the real `tooldesk mcp serve` as a child process for integration tests: a fresh
// TOOLDESK_HOME whose settings enable the example groups, a tool root holding a copy of
// resources/examples/ and test/fixtures/tools/mcp-serve/, and MCP SDK clients connected to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const repo = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(repo, 'electron/cli/bin.mjs');

export const ENABLED_GROUPS = ['text_stats', 'script', 'countdown', 'examples', 'disk_usage', 'guarded'];

export interface ServeHome {
  home: string;
  root: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function serveHome(groups: string[] = ENABLED_GROUPS): ServeHome {
  const base = mkdtempSync('/var/tmp/td-mcp-');
  const home = join(base, 'home');
  const root = join(base, 'tools');
  mkdirSync(home, { recursive: true });
  cpSync(join(repo, 'resources/examples'), root, { recursive: true });
  cpSync(join(repo, 'test/fixtures/tools/mcp-serve'), root, { recursive: true });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ groupDefaults: Object.fromEntries(groups.map((g) => [g, true])) }));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.TOOLDESK_HOME = home;
  env.TOOLDESK_SECRET_SERVICE = `tooldesk-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
  return { home, root, env, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export type ElicitAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> };

export interface ClientOptions {
  /** Answers approval questions; absent = a client without the elicitation capability. */
  elicit?: (message: string) => ElicitAnswer | Promise<ElicitAnswer>;
  mode?: 'auto';
}

export function makeClient(options: ClientOptions = {}): Client {
  const client = new Client(
    { name: 'tooldesk-test-host', version: '1.0.0' },
    { capabilities: options.elicit ? { elicitation: { form: {} } } : {}, ...(options.mode ? { versionNegotiation: { mode: options.mode } } : {}) },
  );
  const elicit = options.elicit;
  if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(String(request.params.message)));
  return client;
}

/** A client connected over stdio to a fresh `tooldesk mcp serve --root ROOT` child. */
export async function connectStdio(serve: ServeHome, options: ClientOptions & { args?: string[] } = {}): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const client = makeClient(options);
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', 'serve', '--root', serve.root, ...(options.args ?? [])],
    env: serve.env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

export interface HttpServe {
  url: string;
  token: string | undefined;
  stdout: () => string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `tooldesk mcp serve --http --port 0 …`; resolves once it printed its URL (and token, unless --no-auth). */
export async function startHttp(serve: ServeHome, args: string[] = []): Promise<HttpServe> {
  const child = spawn(process.execPath, [CLI, 'mcp', 'serve', '--http', '--port', '0', '--root', serve.root, ...args], { env: serve.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const noAuth = args.includes('--no-auth');
  const ready = await new Promise<{ url: string; token: string | undefined }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcp serve --http did not start:\n${stdout}\n${stderr}`)), 25_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stdout)?.[1];
      const token = /Bearer token \([^)]*\): (\S+)/.exec(stdout)?.[1];
      // With a new token, wait for the whole printout (it ends with the VS Code config).
      const printed = token !== undefined && /VS Code[^\n]*\n\{[\s\S]*\n\}\n/.test(stdout);
      const settled = noAuth ? /authentication is OFF/.test(stdout) : printed || /Bearer token: the one in the keychain/.test(stdout);
      if (url && settled) {
        clearTimeout(timer);
        resolve({ url, token });
      }
    });
    child.once('exit', (code) => reject(new Error(`mcp serve --http exited (${code}):\n${stdout}\n${stderr}`)));
  });
  return {
    ...ready,
    stdout: () => stdout,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function connectHttp(server: HttpServe, options: ClientOptions & { token?: string | null } = {}): Promise<Client> {
  const client = makeClient(options);
  const token = options.token === null ? undefined : (options.token ?? server.token);
  const transport = new StreamableHTTPClientTransport(new URL(server.url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
  await client.connect(transport);
  return client;
}

/** Ends the HTTP session on the server too (DELETE), then closes the client. */
export async function closeHttp(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => {});
  await client.close();
}

/** The text of a tools/call result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}
