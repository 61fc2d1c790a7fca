// The built app runs the tool host from its own bundle (out/main/module-host.js, run by Electron's
// binary as Node). This drives that bundle through the protocol with real module tools, so a
// build that leaves out a dependency or breaks import.meta fails here, not in a user's app.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeShimBridges } from '../../electron/runtime/sources/module/shim/bridge-files.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BUILT = join(REPO, 'out/main/module-host.js');
const FIXTURES = join(REPO, 'test/fixtures/tools');

beforeAll(() => {
  const source = join(REPO, 'electron/runtime/sources/module/host/main.ts');
  if (!existsSync(BUILT) || statSync(BUILT).mtimeMs < statSync(source).mtimeMs) execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO, stdio: 'ignore', timeout: 120_000 });
}, 150_000);

describe('the built tool host (out/main/module-host.js)', () => {
  it('loads and runs module tools over the protocol, imports and pi shims included', async () => {
    const bridges = writeShimBridges(join(mkdtempSync(join(tmpdir(), 'td-built-')), 'shim'));
    const child = spawn(process.execPath, [BUILT, JSON.stringify({ cacheDir: null, bridges })], { env: { PATH: process.env.PATH!, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const messages: Record<string, unknown>[] = [];
    const waiters: Array<() => void> = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      messages.push(JSON.parse(line));
      for (const w of waiters.splice(0)) w();
    });
    const next = async (test: (m: Record<string, unknown>) => boolean) => {
      for (;;) {
        const found = messages.find(test);
        if (found) return found;
        await new Promise<void>((r) => waiters.push(r));
      }
    };
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    try {
      expect(await next((m) => m.t === 'ready')).toMatchObject({ t: 'ready' });
      const interop = join(FIXTURES, 'module-imports', 'interop');
      send({ t: 'load', id: 1, loadId: 1, entry: { root: join(FIXTURES, 'module-imports'), path: interop, format: 'module' }, workingDir: tmpdir(), factoryTimeoutMs: 10_000 });
      const shapes = join(FIXTURES, 'module-shapes', 'pi_mono_extension.ts');
      send({ t: 'load', id: 2, loadId: 2, entry: { root: join(FIXTURES, 'module-shapes'), path: shapes, format: 'module' }, workingDir: tmpdir(), factoryTimeoutMs: 10_000 });
      const first = (await next((m) => m.t === 'loaded' && m.id === 1)) as { tools: { key: string }[]; diagnostics: unknown[] };
      const second = (await next((m) => m.t === 'loaded' && m.id === 2)) as { tools: { key: string; definition: { function: { name: string } } }[]; diagnostics: unknown[] };
      expect(first.diagnostics).toEqual([]);
      expect(second.diagnostics).toEqual([]);
      expect(second.tools.map((t) => t.definition.function.name)).toEqual(['pi_mono_greet']);
      send({ t: 'execute', id: 3, loadId: 1, key: first.tools[0]!.key, args: {}, callId: 'c', sessionId: 's' });
      const result = (await next((m) => m.t === 'result' && m.id === 3)) as { result: { status: string; formattedText: string } };
      expect(result.result.status).toBe('SUCCESS');
      expect(JSON.parse(result.result.formattedText)).toMatchObject({ cjsDefault: '5 ms', esmDefault: 'hello ada', builtinDefault: join('a', 'b') });
      send({ t: 'execute', id: 4, loadId: 2, key: second.tools[0]!.key, args: { name: 'Ada', tone: 'warm' }, callId: 'c', sessionId: 's' });
      expect(await next((m) => m.t === 'result' && m.id === 4)).toMatchObject({ result: { status: 'SUCCESS', formattedText: 'Hello, Ada! (warm)' } });
    } finally {
      child.stdin.end();
      await new Promise((r) => child.on('exit', r));
    }
    expect(stderr).toBe('');
  });
});
