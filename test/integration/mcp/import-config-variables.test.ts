// Issue #36 items 13 and 16: VS Code's and Cursor's `${…}` variables at import. Folders
// (`${workspaceFolder}`, `${userHome}`) are resolved at import and shown in --dry-run; `${env:NAME}`
// stays a reference resolved when the server starts (its value never reaches the settings); what
// cannot be resolved is named. With the home as working folder, ~/.cursor/mcp.json is listed once.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');
const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));
function newHome(): string {
  const home = mkdtempSync('/var/tmp/td-import-vars-');
  homes.push(home);
  return home;
}
function cli(home: string, args: string[], cwd = home, extraEnv: Record<string, string> = {}) {
  const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: join(home, '.tooldesk'), XDG_CONFIG_HOME: join(home, '.config'), ...extraEnv };
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: 90_000, input: '' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
const settingsOf = (home: string) => JSON.parse(readFileSync(join(home, '.tooldesk', 'settings.json'), 'utf8'));

describe('config variables at import', () => {
  it("a project's .vscode/mcp.json: ${workspaceFolder} and ${userHome} resolved at import, ${env:NAME} when the server starts", () => {
    const home = newHome();
    const project = join(home, 'project');
    mkdirSync(join(project, '.vscode'), { recursive: true });
    mkdirSync(join(project, 'docs'));
    writeFileSync(join(project, 'docs', 'readme.txt'), 'project docs');
    mkdirSync(join(home, 'notes'));
    writeFileSync(
      join(project, '.vscode', 'mcp.json'),
      JSON.stringify({
        servers: {
          files: { type: 'stdio', command: process.execPath, args: [FILESYSTEM, '${workspaceFolder}/docs', '${userHome}${/}notes'] },
          ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { PROJECT_TOKEN: '${env:TD_IMPORT_TOKEN}', WHERE: '${workspaceFolderBasename}' } },
        },
      }),
    );
    expect(cli(home, ['tools', 'trust', join(project, '.vscode')]).code).toBe(0);

    const dry = cli(home, ['mcp', 'import', '--dry-run'], project);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`+ files: ${process.execPath} ${FILESYSTEM} ${project}/docs ${home}/notes`);
    expect(dry.stdout).toMatch(/\+ ev: .*\n(.*\n)*? {4}reads \$TD_IMPORT_TOKEN from the environment when it starts/);
    expect(dry.stdout).not.toContain('${workspaceFolder}');

    const imported = cli(home, ['mcp', 'import'], project, { TD_IMPORT_TOKEN: 'value-from-env-123' });
    expect(imported.code, imported.stderr).toBe(0);
    const saved = settingsOf(home).mcpServers;
    expect(saved.files.args).toEqual([FILESYSTEM, `${project}/docs`, `${home}/notes`]);
    expect(saved.ev.env).toEqual({ PROJECT_TOKEN: '${env:TD_IMPORT_TOKEN}', WHERE: 'project' });
    expect(readFileSync(join(home, '.tooldesk', 'settings.json'), 'utf8')).not.toContain('value-from-env-123');

    // Sandbox off: the point here is the variables, and the home is under /var/tmp.
    cli(home, ['config', 'set', 'mcpServers.files.sandbox', '"off"']);
    cli(home, ['config', 'set', 'mcpServers.ev.sandbox', '"off"']);
    expect(cli(home, ['mcp', 'enable', 'files']).code).toBe(0);
    expect(cli(home, ['mcp', 'enable', 'ev']).code).toBe(0);
    const listed = cli(home, ['tools', 'run', 'files__list_allowed_directories', '--yes']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${project}/docs`);

    const withToken = cli(home, ['tools', 'run', 'ev__get-env', '--yes'], home, { TD_IMPORT_TOKEN: 'value-from-env-123' });
    expect(withToken.code, withToken.stderr).toBe(0);
    expect(withToken.stdout).toContain('value-from-env-123');

    const without = cli(home, ['tools', 'run', 'ev__get-env', '--yes']);
    expect(without.code).not.toBe(0);
    expect(without.stdout + without.stderr).toMatch(/environment variable \$TD_IMPORT_TOKEN is not set/);
  }, 180_000);

  it('a user-level config: ${workspaceFolder} cannot be resolved and is named; other unknown variables too', () => {
    const home = newHome();
    const file = join(home, 'vscode-user-mcp.json');
    writeFileSync(file, JSON.stringify({ servers: { files: { command: 'node', args: [FILESYSTEM, '${workspaceFolder}', '${config:editor.tabSize}'] } } }));
    const dry = cli(home, ['mcp', 'import', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('warning: ${workspaceFolder} is kept as written: a user-level config has no workspace folder');
    expect(dry.stdout).toContain('warning: ${config:editor.tabSize} is kept as written');
  }, 60_000);

  it('with the home as working folder, ~/.cursor/mcp.json is listed once', () => {
    const home = newHome();
    mkdirSync(join(home, '.cursor'));
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { mem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } }));
    const dry = cli(home, ['mcp', 'import', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.match(/mcp\.json/g)).toHaveLength(1);
    expect(dry.stdout).toContain('+ mem: npx -y @modelcontextprotocol/server-memory   from Cursor (');
    expect(dry.stdout).not.toContain('skipped');
  }, 60_000);
});
