// Issue #36 item 12: importing servers with secrets on a machine without a keychain is never a
// silent dead end. The import says which servers cannot start and why, marks them "secret
// missing" (mcp list, the row), and names what works here: the secret's TOOLDESK_SECRET_…
// variable, exported where Tooldesk starts, which the server then receives. Real CLI, no
// keychain (a D-Bus address that leads nowhere), real server-everything (get-env shows its env).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../support/mcp-servers.ts';
import { runCli } from '../../support/run-cli.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const homes = tempHomes();
afterAll(() => homes.removeAll());

const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/tooldesk-test-bus' };
const SECRET = 'mcp.ev.API_TOKEN';
const VARIABLE = 'TOOLDESK_SECRET_MCP_EV_API_TOKEN';

const cli = (home: string, args: string[], env: Record<string, string> = {}) =>
  runCli(join(home, '.tooldesk'), args, '', { ...NO_KEYCHAIN, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env });

describe('imported secrets without a keychain', () => {
  it('the import names the server that cannot start and the variable that gives it its secret; the server starts with it', async () => {
    const home = homes.make();
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    const config = { mcpServers: { ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { API_TOKEN: 'tok-literal-42' } } } };
    writeFileSync(join(home, '.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify(config));

    const imported = await cli(home, ['mcp', 'import']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`secret ${SECRET} could not be stored (no keychain on this machine): ev cannot start without it and is marked "secret missing". Export ${VARIABLE}=… in the environment Tooldesk starts from`);
    expect(imported.stderr).toContain('without a keychain these servers cannot start until their secrets are given as above: ev');
    const settings = JSON.parse(readFileSync(join(home, '.tooldesk', 'settings.json'), 'utf8'));
    expect(settings.mcpServers.ev.secretMissing).toEqual([SECRET]);
    expect(JSON.stringify(settings)).not.toContain('tok-literal-42');

    const listed = await cli(home, ['mcp', 'list']);
    expect(listed.stdout).toMatch(/^ev {2}\(disabled, secret missing/m);
    expect(listed.stdout).toContain(`secret missing: ${SECRET} — set it with \`tooldesk secrets set ${SECRET}\`, then \`tooldesk mcp enable ev\` (no keychain here? export ${VARIABLE}=… before starting Tooldesk)`);

    await cli(home, ['config', 'set', 'mcpServers.ev.sandbox', '"off"']);
    expect((await cli(home, ['mcp', 'enable', 'ev'])).code).toBe(0);
    const without = await cli(home, ['tools', 'run', 'ev__get-env', '--yes']);
    expect(without.code).not.toBe(0);
    expect(without.stdout + without.stderr).toContain(`missing secret: ${SECRET}. This machine has no keychain: export ${VARIABLE}=… in the environment Tooldesk starts from`);

    const given = await cli(home, ['tools', 'run', 'ev__get-env', '--yes'], { [VARIABLE]: 'tok-from-env-7' });
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toContain('tok-from-env-7');
    const listedWith = await cli(home, ['mcp', 'list'], { [VARIABLE]: 'tok-from-env-7' });
    expect(listedWith.stdout).toContain(`secret missing in the keychain: ${SECRET} — given by $${VARIABLE} in this environment`);
  }, 120_000);
});
