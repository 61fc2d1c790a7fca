// `tooldesk mcp …` and `tooldesk tools list|run` with MCP servers, spawning the real CLI, with a
// real (headless) keychain for the secrets that add/import move out of the settings.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadlessKeyring, type HeadlessKeyring } from '../../support/headless-keyring.ts';
import { EVERYTHING } from '../../support/mcp-servers.ts';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');

let keyring: HeadlessKeyring | undefined;
beforeAll(() => {
  keyring = startHeadlessKeyring();
});
afterAll(() => keyring?.stop());

function cli(home: string, args: string[], input = '') {
  const service = `Tooldesk-test-${process.pid}`;
  const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: join(home, '.tooldesk'), TOOLDESK_SECRET_SERVICE: service, ...keyring?.env };
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: home, env, input, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
const settingsOf = (home: string) => JSON.parse(readFileSync(join(home, '.tooldesk', 'settings.json'), 'utf8'));
const newHome = () => mkdtempSync('/var/tmp/td-mcp-cli-');

describe('tooldesk mcp', () => {
  it('add, enable, list --status, tools list/run, logs, disable, remove', () => {
    const home = newHome();
    expect(cli(home, ['mcp', 'add', 'ev', '--sandbox', 'off', '--', process.execPath, EVERYTHING, 'stdio'])).toMatchObject({ code: 0 });
    expect(settingsOf(home).mcpServers.ev).toEqual({ command: process.execPath, args: [EVERYTHING, 'stdio'], sandbox: 'off' });
    expect(cli(home, ['mcp', 'enable', 'ev']).code).toBe(0);

    const status = cli(home, ['mcp', 'list', '--status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^ev {2}\(enabled, sandbox off\) — stdio: /m);
    expect(status.stdout).toMatch(/ready with \d+ tools \(protocol /);

    const tools = cli(home, ['tools', 'list', '--json']);
    const groups = JSON.parse(tools.stdout).groups as Array<{ name: string; enabled: boolean; tools: Array<{ name: string; format: string }> }>;
    const ev = groups.find((g) => g.name === 'ev')!;
    expect(ev.enabled).toBe(true);
    expect(ev.tools.map((t) => t.name)).toContain('ev__get-sum');
    expect(ev.tools[0]!.format).toBe('mcp');

    const run = cli(home, ['tools', 'run', 'ev__get-sum', '--args', '{"a": 20, "b": 22}', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('42');

    const logs = cli(home, ['mcp', 'logs', 'ev']);
    expect(logs.code).toBe(0);
    expect(logs.stdout.length).toBeGreaterThan(0);

    expect(cli(home, ['mcp', 'disable', 'ev']).code).toBe(0);
    expect(settingsOf(home).groupDefaults.ev).toBe(false);
    expect(cli(home, ['mcp', 'remove', 'ev']).code).toBe(0);
    expect(settingsOf(home).mcpServers).toEqual({});
    expect(cli(home, ['mcp', 'remove', 'ev'])).toMatchObject({ code: 1, stderr: expect.stringContaining('no server named "ev"') });
  }, 120_000);

  it('tools run asks an MCP server\'s elicitation form on the terminal (--yes: the defaults)', () => {
    const home = newHome();
    cli(home, ['mcp', 'add', 'ev', '--enable', '--sandbox', 'off', '--', process.execPath, EVERYTHING, 'stdio']);
    const asked = cli(home, ['tools', 'run', 'ev__trigger-elicitation-request'], `y\nAda Lovelace\n${'\n'.repeat(12)}y\n`);
    expect(asked.stderr).toContain('MCP server "ev" asks: Please provide inputs for the following fields:');
    expect(asked.stderr).toMatch(/name \(String\) — Your full, legal name: /);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('Ada Lovelace');
    expect(asked.stdout).toContain('It was a dark and stormy night.');
    const declined = cli(home, ['tools', 'run', 'ev__trigger-elicitation-request'], `y\nBob\n${'\n'.repeat(12)}n\n`);
    expect(declined.stdout).toMatch(/decline/i);
    const defaults = cli(home, ['tools', 'run', 'ev__trigger-elicitation-request', '--yes']);
    expect(defaults.stderr).toContain("answered with the form's defaults (--yes)");
  }, 120_000);

  it('refuses bad input with the field and what to do', () => {
    const home = newHome();
    expect(cli(home, ['mcp', 'add', 'x'])).toMatchObject({ code: 2, stderr: expect.stringContaining("give the server's command after --") });
    expect(cli(home, ['mcp', 'add', 'x', '--url', 'ftp://nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('"url" must start with http:// or https://') });
    expect(cli(home, ['mcp', 'add', 'x', '--url', 'http://a', '--header', 'novalue'])).toMatchObject({ code: 2, stderr: expect.stringContaining('must be NAME:VALUE') });
    expect(cli(home, ['mcp', 'frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown sub-command "frobnicate"') });
  }, 60_000);

  it.runIf(process.platform === 'linux')('a literal secret in a header goes to the keychain; settings keep a reference', () => {
    if (!keyring) return expect.fail('dbus-daemon and gnome-keyring-daemon are needed for this test');
    const home = newHome();
    const added = cli(home, ['mcp', 'add', 'remote', '--url', 'http://127.0.0.1:9/mcp', '--header', 'Authorization: Bearer sk-very-secret']);
    expect(added.code).toBe(0);
    const text = readFileSync(join(home, '.tooldesk', 'settings.json'), 'utf8');
    expect(text).not.toContain('sk-very-secret');
    expect(settingsOf(home).mcpServers.remote.headers).toEqual({ Authorization: '${secret:mcp.remote.Authorization}' });
    expect(cli(home, ['secrets', 'has', 'mcp.remote.Authorization']).code).toBe(0);
  }, 60_000);

  it.runIf(process.platform === 'linux')('import reads Claude Desktop and VS Code configs from their places, shows the plan, moves secrets', () => {
    if (!keyring) return expect.fail('dbus-daemon and gnome-keyring-daemon are needed for this test');
    const home = newHome();
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_literal123', LOG_LEVEL: 'debug' } }, broken: { args: [] } } }),
    );
    mkdirSync(join(home, '.vscode'), { recursive: true });
    writeFileSync(join(home, '.vscode', 'mcp.json'), '{\n  // VS Code allows comments\n  "servers": { "web": { "type": "http", "url": "https://example.com/mcp", }, },\n}\n');

    // The project's .vscode/mcp.json (cli runs in `home`) waits until that folder is trusted.
    expect(cli(home, ['mcp', 'import', '--dry-run']).stdout).toContain("- web skipped (a project's config, in a folder not trusted yet");
    expect(cli(home, ['tools', 'trust', join(home, '.vscode')]).code).toBe(0);
    const dry = cli(home, ['mcp', 'import', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('+ github: npx -y @modelcontextprotocol/server-github   from Claude Desktop');
    expect(dry.stdout).toContain('secret mcp.github.GITHUB_PERSONAL_ACCESS_TOKEN → keychain (its value was in the file)');
    expect(dry.stdout).toContain('+ web: https://example.com/mcp   from VS Code (project)');
    expect(dry.stdout).toMatch(/- broken skipped \(MCP server "broken": the entry needs "command"/);
    expect(settingsOf(home).mcpServers).toEqual({});

    const real = cli(home, ['mcp', 'import']);
    expect(real.code).toBe(0);
    const servers = settingsOf(home).mcpServers;
    expect(servers.github.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:mcp.github.GITHUB_PERSONAL_ACCESS_TOKEN}', LOG_LEVEL: 'debug' });
    expect(servers.web).toEqual({ type: 'http', url: 'https://example.com/mcp' });
    expect(readFileSync(join(home, '.tooldesk', 'settings.json'), 'utf8')).not.toContain('ghp_literal123');
    expect(cli(home, ['secrets', 'has', 'mcp.github.GITHUB_PERSONAL_ACCESS_TOKEN']).code).toBe(0);
    expect(cli(home, ['mcp', 'import']).stdout).toContain('- github skipped (a server of this name is already configured)');
  }, 90_000);
});
