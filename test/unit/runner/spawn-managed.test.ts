import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { mapSecretResolver } from '../../../electron/runtime/runner/secret-resolver.ts';
import { detectSandbox } from '../../../electron/runtime/runner/sandbox-detect.ts';
import { spawnManaged, type ManagedProcess, type ManagedSpec } from '../../../electron/runtime/runner/spawn-managed.ts';
import { isAlive } from '../../support/live-processes.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'td-managed-'));
const sh = (script: string, extra: Partial<ManagedSpec> = {}): ManagedSpec => ({ command: 'sh', args: ['-c', script], cwd: tmp(), ...extra });

async function started(spec: ManagedSpec, options = {}): Promise<ManagedProcess> {
  const child = await spawnManaged(spec, options);
  if ('error' in child) throw new Error(child.error);
  return child;
}

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input: stream });
  for await (const line of lines) return line;
  return '';
}

async function waitFor(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe('spawnManaged', () => {
  it('speaks over stdin/stdout and stays up until killed', async () => {
    const child = await started({ command: 'cat', args: [], cwd: tmp() });
    child.stdin.write('hello\n');
    expect(await firstLine(child.stdout)).toBe('hello');
    expect(isAlive(child.pid)).toBe(true);
    await child.kill();
    expect(await waitFor(() => !isAlive(child.pid))).toBe(true);
  });

  it('kills the whole group, a grandchild that ignores SIGTERM included', async () => {
    const dir = tmp();
    const child = await started(sh(`sh -c 'trap "" TERM; echo $$ > ${dir}/stubborn.pid; while :; do sleep 0.05; done' & echo ready; sleep 60`, { cwd: dir }), { killGraceMs: 100 });
    expect(await firstLine(child.stdout)).toBe('ready');
    await waitFor(() => existsSync(join(dir, 'stubborn.pid')));
    const stubborn = Number(readFileSync(join(dir, 'stubborn.pid'), 'utf8'));
    await child.kill();
    expect(await waitFor(() => !isAlive(stubborn))).toBe(true);
  });

  it('reports its exit (code and signal) and settles kill() at once afterwards', async () => {
    const child = await started(sh('exit 3'));
    expect(await child.exited).toEqual({ code: 3, signal: null });
    await child.kill();
  });

  it('starts with the minimal environment plus what the spec adds', async () => {
    const child = await started(sh('echo "$TD_LEAK|$TD_ADDED|$PATH"', { env: { TD_ADDED: 'yes' } }), { baseEnv: { ...process.env, TD_LEAK: 'leaked' } });
    const [leak, added, path] = (await firstLine(child.stdout)).split('|');
    expect(leak).toBe('');
    expect(added).toBe('yes');
    expect(path).not.toBe('');
    await child.kill();
  });

  it('injects declared secrets and redacts them from stderr (live and tail) and via redact()', async () => {
    const seen: string[] = [];
    const child = await started(sh('echo "key=$API_KEY" >&2; echo "out=$API_KEY"', { secrets: ['API_KEY'] }), { resolveSecrets: mapSecretResolver({ API_KEY: 's3cr3t-value' }) });
    child.onStderr((text) => seen.push(text));
    const out = await firstLine(child.stdout);
    expect(out).toBe('out=s3cr3t-value'); // stdout is the protocol channel: the caller redacts what it keeps
    expect(child.redact(out)).toBe('out=[secret:API_KEY]');
    await child.exited;
    expect(seen.join('')).toBe('key=[secret:API_KEY]\n');
    expect(child.stderrTail()).toBe('key=[secret:API_KEY]\n');
  });

  it('refuses to start when a declared secret has no value, naming it', async () => {
    const result = await spawnManaged(sh('true', { secrets: ['NOPE'] }), { resolveSecrets: mapSecretResolver({}) });
    expect(result).toEqual({ error: expect.stringContaining('missing secret: NOPE') });
    const noStore = await spawnManaged(sh('true', { secrets: ['NOPE'] }));
    expect(noStore).toEqual({ error: expect.stringContaining('no secret store') });
  });

  it('keeps only the last maxStderrBytes of stderr', async () => {
    const child = await started(sh('i=0; while [ $i -lt 200 ]; do echo "line $i" >&2; i=$((i+1)); done', { maxStderrBytes: 100 }));
    await child.exited;
    const tail = child.stderrTail();
    expect(tail.length).toBeLessThanOrEqual(100);
    expect(tail.endsWith('line 199\n')).toBe(true);
  });

  it('a command that does not exist is an error value, not a throw', async () => {
    expect(await spawnManaged({ command: 'no-such-command-td', args: [], cwd: tmp() })).toEqual({ error: 'command not found: no-such-command-td' });
    expect(await spawnManaged({ command: '/nope/bin/x', args: [], cwd: tmp() })).toEqual({ error: 'command not found: /nope/bin/x' });
  });

  it('a listener that throws stops neither the others nor the process', async () => {
    const seen: string[] = [];
    const child = await started(sh('echo a >&2; sleep 0.1; echo b >&2; echo done'));
    child.onStderr(() => {
      throw new Error('bad listener');
    });
    const off = child.onStderr((text) => seen.push(text));
    expect(await firstLine(child.stdout)).toBe('done');
    off();
    await child.exited;
    expect(seen.join('')).toBe('a\nb\n');
  });

  it('dies with its parent even when the parent is SIGKILLed (no cleanup code ran)', async () => {
    const dir = tmp();
    const spec = sh(`sleep 60 & echo $! > ${dir}/grandchild.pid; sleep 60`, { cwd: dir });
    const parent = spawn(join(process.cwd(), 'node_modules/.bin/tsx'), ['test/support/spawn-managed-parent.ts', JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const { pid } = JSON.parse(await firstLine(parent.stdout!)) as { pid: number };
    await waitFor(() => existsSync(join(dir, 'grandchild.pid')) && readFileSync(join(dir, 'grandchild.pid'), 'utf8').trim() !== '');
    const grandchild = Number(readFileSync(join(dir, 'grandchild.pid'), 'utf8'));
    expect(isAlive(pid)).toBe(true);
    expect(isAlive(grandchild)).toBe(true);
    // tsx runs the script in a child node: kill that whole tree abruptly.
    const tree = childPids(parent.pid!);
    process.kill(parent.pid!, 'SIGKILL');
    for (const p of tree) process.kill(p, 'SIGKILL');
    expect(await waitFor(() => !isAlive(pid) && !isAlive(grandchild), 5000)).toBe(true);
  });

  it('unref() lets the parent exit while the child idles; the lifeline then ends the child', async () => {
    const dir = tmp();
    const script = `import { spawnManaged } from ${JSON.stringify(join(process.cwd(), 'electron/runtime/runner/spawn-managed.ts'))};
const child = await spawnManaged({ command: 'sleep', args: ['60'], cwd: ${JSON.stringify(dir)} });
if ('error' in child) throw new Error(child.error);
console.log(child.pid);
child.unref();`;
    const file = join(dir, 'parent.mts');
    writeFileSync(file, script);
    const started = Date.now();
    const out = execFileSync(join(process.cwd(), 'node_modules/.bin/tsx'), [file], { encoding: 'utf8', timeout: 20_000 });
    expect(Date.now() - started).toBeLessThan(15_000);
    const pid = Number(out.trim());
    expect(await waitFor(() => !isAlive(pid), 5000)).toBe(true);
  });

  it.runIf(detectSandbox().available)('runs inside the sandbox: the filesystem is read-only outside the tool folder', async () => {
    const toolDir = tmp();
    const outside = tmp();
    const child = await started(sh(`touch ${outside}/escaped 2>/dev/null && echo wrote || echo refused`, { cwd: toolDir, sandbox: { mode: 'required', toolDir, network: false } }));
    expect(child.sandboxed).toBe(true);
    expect(await firstLine(child.stdout)).toBe('refused');
    await child.exited;
    expect(existsSync(join(outside, 'escaped'))).toBe(false);
  });
});

/** Direct children of `pid` (from /proc). */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe('kill() of an unref()d child', () => {
  it('keeps the process alive until the child has exited (an awaited kill is never cut short)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-kill-'));
    const script = `import { spawnManaged } from ${JSON.stringify(join(process.cwd(), 'electron/runtime/runner/spawn-managed.ts'))};
const child = await spawnManaged({ command: 'sleep', args: ['60'], cwd: ${JSON.stringify(dir)} });
if ('error' in child) throw new Error(child.error);
child.unref();
await child.kill();
console.log('killed');`;
    const file = join(dir, 'parent.mts');
    writeFileSync(file, script);
    // Before the fix the awaited kill left nothing to keep the loop alive: exit code 13, no "killed".
    const out = execFileSync(join(process.cwd(), 'node_modules/.bin/tsx'), [file], { encoding: 'utf8', timeout: 20_000 });
    expect(out.trim()).toBe('killed');
  });
});
