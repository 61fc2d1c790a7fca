// What a hurried user or a hostile script can hand the `tooldesk` command, as real processes:
// prototype keys in `config set`, a renamed keychain service that some commands ignored, and a
// session file torn by a crash whose warning was swallowed. Each case failed before its fix.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../support/run-cli.ts';
import { tempHomes } from '../support/temp-homes.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'electron/cli/bin.mjs');
const homes = tempHomes();
afterAll(() => homes.removeAll());

/** Runs `command args…` (node bin.mjs by default) with TOOLDESK_HOME=home. */
const run = (home: string, command: string[], env: Record<string, string> = {}, input = '') => runCommand(home, command, input, env);
const cli = (home: string, args: string[], env: Record<string, string> = {}) => run(home, [process.execPath, bin, ...args], env);

// Each case spawns the CLI a few times (tsx start-up); a loaded machine needs room.
vi.setConfig({ testTimeout: 120_000 });

describe('config set with prototype keys', () => {
  it.each([
    ['sandbox.perTool.__proto__', '5', '__proto__'],
    ['limits.__proto__.b', '5', '__proto__'],
    ['groupDefaults.constructor', 'true', 'constructor'],
    ['toolDefaults.prototype', 'false', 'prototype'],
    ['permissionOverrides.x.__proto__', '{}', '__proto__'],
  ])('refuses %s by name and stores nothing', async (key, value, segment) => {
    const home = homes.make();
    const before = JSON.stringify({ limits: { maxSteps: 7 } });
    writeFileSync(join(home, 'settings.json'), before);
    const r = await cli(home, ['config', 'set', key, value]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(`tooldesk config: "${key}" is not a valid key path: "${segment}" cannot be a key (__proto__, constructor and prototype are refused)\n`);
    expect(readFileSync(join(home, 'settings.json'), 'utf8')).toBe(before);
  });

  it('says so for `config get` too, instead of "no setting"', async () => {
    const get = await cli(homes.make(), ['config', 'get', 'limits.constructor']);
    expect(get).toMatchObject({ code: 1, stderr: 'tooldesk config: "limits.constructor" is not a valid key path: "constructor" cannot be a key (__proto__, constructor and prototype are refused)\n' });
  });

  it('refuses a JSON value that carries one inside, naming where', async () => {
    const home = homes.make();
    const r = await cli(home, ['config', 'set', 'groupDefaults', '{"web": true, "__proto__": {"admin": true}}']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('tooldesk config: the value holds the key "__proto__"; __proto__, constructor and prototype cannot be keys\n');
    expect((await cli(home, ['config', 'get', 'groupDefaults'])).stdout).toBe('{}\n');
  });
});

describe('TOOLDESK_SECRET_SERVICE', () => {
  it('is the keychain service of `tools run` too (a secret set under it reaches the tool)', async () => {
    const home = homes.make();
    mkdirSync(join(home, 'run'), { mode: 0o700 });
    mkdirSync(join(home, 'tools/needs_key'), { recursive: true });
    writeFileSync(
      join(home, 'tools/needs_key/tool.json'),
      JSON.stringify({ name: 'needs_key', description: 'says how long its key is', secrets: ['TD_SVC_KEY'], always_allow: true, parameters: { type: 'object', properties: {} } }),
    );
    writeFileSync(join(home, 'tools/needs_key/script.js'), 'console.log(JSON.stringify({ length: (process.env.TD_SVC_KEY || "").length }));\n');
    // A private Secret Service (GNOME Keyring on its own session bus) for this test only.
    const env = { HOME: home, XDG_DATA_HOME: join(home, 'share'), XDG_RUNTIME_DIR: join(home, 'run'), TOOLDESK_SECRET_SERVICE: `TooldeskSvc-${process.pid}` };
    const script = [
      'printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 9',
      `printf 0123456789 | "${process.execPath}" "${bin}" secrets set TD_SVC_KEY || exit 8`,
      `exec "${process.execPath}" "${bin}" tools run script_needs_key --yes`,
    ].join('\n');
    const r = await run(home, ['dbus-run-session', '--', 'sh', '-c', script], env);
    expect(r.stderr).not.toMatch(/missing secret/);
    expect(r).toMatchObject({ code: 0, stdout: '{"length":10}\n' });
  });
});

describe('a session file torn by a crash', () => {
  it('`sessions show` and `chat --session` print the warning on stderr, even after `sessions list`', async () => {
    const home = homes.make();
    expect((await cli(home, ['chat', '/ListVars {}'])).code).toBe(1);
    const file = readdirSync(join(home, 'sessions')).find((f) => f.endsWith('.jsonl'))!;
    const id = file.slice(0, -'.jsonl'.length);
    const warning = `tooldesk: warning: ${join(home, 'sessions', file)}: the last line was cut off (the app probably stopped while writing it); it was dropped.\n`;

    appendFileSync(join(home, 'sessions', file), '{"t":"message","at":1,"mess');
    expect((await cli(home, ['sessions', 'list'])).stdout).toContain(id);
    const show = await cli(home, ['sessions', 'show', id]);
    expect(show.code).toBe(0);
    expect(show.stderr).toBe(warning);
    expect(show.stdout).toContain('> /ListVars {}');

    appendFileSync(join(home, 'sessions', file), '{"t":"mess');
    const chat = await cli(home, ['chat', '--session', id, '/ListVars {}']);
    expect(chat.stderr.startsWith(warning)).toBe(true);
    // Once opened, the torn line is gone and nothing else was lost.
    const again = await cli(home, ['sessions', 'show', id, '--json']);
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout).messages).toHaveLength(4);
  });
});
