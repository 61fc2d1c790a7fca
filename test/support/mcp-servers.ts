// Real MCP servers for tests: the reference "everything" server (stdio or Streamable HTTP on a
// random port) and our hostile fixtures, plus a manager wired like the app's.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpManager } from '../../electron/runtime/sources/mcp/mcp-manager.ts';
import { managedSpawn } from '../../electron/runtime/sources/mcp/index.ts';
import type { McpClientDeps } from '../../electron/runtime/sources/mcp/types.ts';

export const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/mcp/${name}`, import.meta.url));

export function testManager(deps: Partial<McpClientDeps> = {}): McpManager {
  return new McpManager({
    spawn: managedSpawn({ killGraceMs: 200 }),
    resolveSecrets: async (names) => ({ values: {}, missing: names }),
    workingDir: process.cwd(),
    startTimeoutMs: 15_000,
    restartDelaysMs: [100, 200],
    ...deps,
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** server-everything over Streamable HTTP (or the legacy HTTP+SSE); resolves once it accepts connections. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`;
  const end = Date.now() + 15_000;
  while (Date.now() < end) {
    const ok = await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' }).then(() => true, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
