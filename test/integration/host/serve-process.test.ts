// `tooldesk serve` and `npm start`'s browser-mode fallback as real processes: they print a URL
// with a token; the page loads; the API answers over the socket only with that token.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, rendererBuildState } from '../../../electron/cli/serve/renderer-build.ts';
import { callOverSocket } from '../../support/api-socket-call.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const children: ChildProcess[] = [];

// Build once up front (CI has built already) so the processes below never rebuild out/renderer
// while other suites are serving it.
beforeAll(async () => {
  if (rendererBuildState().fresh) return;
  let log = '';
  const code = await buildRenderer({ write: (c: unknown) => ((log += String(c)), true) } as unknown as NodeJS.WritableStream);
  if (code !== 0) throw new Error(`the renderer build failed:\n${log}`);
}, 120_000);

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function startCli(args: string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'td-'));
  const child = spawn(process.execPath, [join(root, 'electron/cli/bin.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, TOOLDESK_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const url = new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(stdout);
      if (m) resolve(m[0]);
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing a URL:\n${stdout}\n${stderr}`)));
  });
  url.catch(() => {}); // awaited by the tests that expect a URL; others only check the exit
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

describe('tooldesk serve (a real process)', () => {
  it('prints a token URL, serves the page, answers the API with the token only, stops on SIGTERM', async () => {
    const cli = startCli(['serve', '--port', '0', '--no-build']);
    const url = new URL(await cli.url);
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    expect(token.length).toBeGreaterThanOrEqual(40);

    const page = await fetch(`http://${url.host}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const script = /src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    expect((await fetch(`http://${url.host}${script!.startsWith('/') ? '' : '/'}${script!.replace(/^\.\//, '')}`)).status).toBe(200);

    const info = (await callOverSocket(`ws://${url.host}/api?token=${token}`, 'appInfo')) as { ok: boolean; value: { browserMode: boolean } };
    expect(info).toMatchObject({ ok: true, value: { browserMode: true } });
    await expect(callOverSocket(`ws://${url.host}/api?token=wrong`, 'appInfo')).rejects.toThrow('HTTP 401');

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it('npm start without an Electron binary says why and starts browser mode', async () => {
    const cli = startCli(['start', '--port', '0'], { ELECTRON_OVERRIDE_DIST_PATH: join(tmpdir(), 'no-electron-here') });
    const url = await cli.url;
    expect(cli.output().stderr).toMatch(/cannot open its desktop window: .*Starting browser mode instead/s);
    const page = await fetch(url.replace(/#.*/, ''));
    expect(page.status).toBe(200);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('refuses a bad port on the command line (there is no option to bind elsewhere)', async () => {
    const cli = startCli(['serve', '--port', 'abc']);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toContain('--port needs a number');
  });
});
