// A module tool that calls process.exit(1) at load must cost only itself: `tooldesk tools list`
// and `tooldesk serve` (real processes) keep running and list every other tool with a diagnostic.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { callOverSocket } from '../support/api-socket-call.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');
const tmp = () => mkdtempSync(join(tmpdir(), 'td-cli-host-'));
const stop: Array<() => void> = [];
afterEach(() => {
  for (const kill of stop.splice(0)) kill();
});

/** A tools root: a module that exits at load, one module beside it, one script tool. */
function hostileRoot(): string {
  const root = tmp();
  writeFileSync(join(root, 'a_exits.ts'), 'process.exit(1);\nexport default () => ({ name: "never", execute: async () => "x" });\n');
  writeFileSync(join(root, 'b_module.ts'), 'export default () => ({ name: "module_beside", description: "still listed", execute: async () => "ok" });\n');
  mkdirSync(join(root, 'script_beside'));
  writeFileSync(join(root, 'script_beside/tool.json'), JSON.stringify({ name: 'script_beside', description: 'x', parameters: { type: 'object', properties: {} } }));
  writeFileSync(join(root, 'script_beside/script.py'), 'print("{}")\n');
  return root;
}

describe('a module that exits at load, through the real CLI', () => {
  it('tools list still exits 0, lists the other tools and shows the diagnostic', () => {
    const root = hostileRoot();
    const home = tmp();
    const run = spawnSync(process.execPath, [BIN, 'tools', 'list', '--root', root, '--json'], { cwd: REPO, env: { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout) as { groups: { tools: { name: string }[] }[]; diagnostics: { file: string; message: string }[] };
    expect(listed.groups.flatMap((g) => g.tools.map((t) => t.name)).sort()).toEqual(['module_beside', 'script_script_beside']);
    expect(listed.diagnostics).toEqual([expect.objectContaining({ file: join(root, 'a_exits.ts'), message: expect.stringContaining('exit code 1') })]);
  });

  it('serve keeps running and lists the other tools with the diagnostic', async () => {
    const root = hostileRoot();
    const home = tmp();
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ toolRoots: [root] }));
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-build'], { cwd: REPO, env: { ...process.env, TOOLDESK_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    stop.push(() => child.exitCode === null && child.kill('SIGKILL'));
    let output = '';
    const url = await new Promise<URL>((resolve, reject) => {
      const check = (chunk: Buffer) => {
        output += chunk;
        const m = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(output);
        if (m) resolve(new URL(m[0]));
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', (c: Buffer) => (output += c));
      child.on('exit', (code) => reject(new Error(`serve exited ${code}:\n${output}`)));
    });
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    // Discovery runs in the background: ask until the module tool shows up.
    let tools: { groups: { tools: { name: string }[] }[]; diagnostics: { file: string; message: string }[] } | undefined;
    for (let i = 0; i < 60 && !tools?.groups.some((g) => g.tools.some((t) => t.name === 'module_beside')); i++) {
      const frame = (await callOverSocket(`ws://${url.host}/api?token=${token}`, 'listTools')) as { ok: boolean; value: typeof tools };
      tools = frame.value;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(tools!.groups.flatMap((g) => g.tools.map((t) => t.name))).toEqual(expect.arrayContaining(['module_beside', 'script_script_beside']));
    expect(tools!.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ file: join(root, 'a_exits.ts'), message: expect.stringContaining('exit code 1') })]));
    expect(child.exitCode).toBeNull();
    child.kill('SIGTERM');
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
  }, 60_000);
});
