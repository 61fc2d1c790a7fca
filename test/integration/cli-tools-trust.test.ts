// Project trust through the real CLI (node electron/cli/bin.mjs): a project tool folder found
// from the current folder loads nothing — no code read — until `tooldesk tools trust PATH`.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, tmp } from '../support/module-tool-fixtures.ts';

const BIN = fileURLToPath(new URL('../../electron/cli/bin.mjs', import.meta.url));

function cli(args: string[], cwd: string, home: string) {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: join(home, 'td') }, input: '', encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A project with an omp module tool that leaves a marker when its code is evaluated, and an Agenvoy script tool. */
function project() {
  const home = tmp();
  const proj = join(home, 'proj');
  const omp = join(proj, '.omp', 'tools');
  const agenvoy = join(proj, '.config', 'agenvoy', 'tools', 'script');
  mkdirSync(omp, { recursive: true });
  mkdirSync(agenvoy, { recursive: true });
  const marker = join(home, 'module-code-ran');
  writeFileSync(
    join(omp, 'pwn.ts'),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default (api: any) => ({ name: "pwn", label: "pwn", description: "planted", parameters: api.typebox.Type.Object({}), async execute() { return { content: [{ type: "text", text: "x" }] }; } });\n`,
  );
  cpSync(join(EXAMPLES, 'json_pick'), join(agenvoy, 'json_pick'), { recursive: true });
  return { home, proj, omp, agenvoy, marker };
}

// Each case spawns the CLI several times (about a second each, more on a busy machine).
describe('tooldesk tools: project trust', { timeout: 120_000 }, () => {
  it('lists an unapproved project folder as "untrusted project folder — review" and loads nothing from it', () => {
    const p = project();
    const list = cli(['tools', 'list'], p.proj, p.home);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`untrusted project folder — review: ${p.omp}`);
    expect(list.stdout).toContain(`untrusted project folder — review: ${p.agenvoy}`);
    expect(list.stdout).toContain(`tooldesk tools trust ${p.omp}`);
    expect(list.stdout).not.toMatch(/^pwn|script_json_pick/m);
    expect(existsSync(p.marker)).toBe(false);
    const check = cli(['tools', 'check', '--json'], p.proj, p.home);
    expect(check.code).toBe(0);
    const report = JSON.parse(check.stdout) as { tools: number; diagnostics: { file: string; message: string; code: string; severity: string }[] };
    expect(report.tools).toBe(0);
    expect(report.diagnostics.filter((d) => d.code === 'untrusted-project-folder').map((d) => [d.file, d.severity])).toEqual([
      [p.agenvoy, 'warning'],
      [p.omp, 'warning'],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)));
    expect(cli(['tools', 'check'], p.proj, p.home).stdout).toMatch(/untrusted project folder — review: none of its tools is loaded/);
    const run = cli(['tools', 'run', 'pwn', '--yes'], p.proj, p.home);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`untrusted project folder — review: ${p.omp} (not loaded; \`tooldesk tools trust ${p.omp}\` approves it)`);
    expect(existsSync(p.marker)).toBe(false);
  });

  it('trust PATH loads that folder only; untrust (or --revoke) withdraws it; the approval is kept in settings', () => {
    const p = project();
    const trusted = cli(['tools', 'trust', '.config/agenvoy/tools/script'], p.proj, p.home);
    expect(trusted).toMatchObject({ code: 0, stdout: `trusted ${p.agenvoy}: its tools load from now on\n` });
    const settings = JSON.parse(readFileSync(join(p.home, 'td', 'settings.json'), 'utf8')) as { trustedProjectFolders: string[] };
    expect(settings.trustedProjectFolders).toEqual([p.agenvoy]);
    const list = cli(['tools', 'list'], p.proj, p.home);
    expect(list.stdout).toContain('script_json_pick');
    expect(list.stdout).toContain(`untrusted project folder — review: ${p.omp}`);
    expect(list.stdout).not.toContain(`review: ${p.agenvoy}`);
    expect(existsSync(p.marker)).toBe(false);
    expect(cli(['tools', 'untrust', p.agenvoy], p.proj, p.home).code).toBe(0);
    expect(cli(['tools', 'list'], p.proj, p.home).stdout).not.toContain('script_json_pick');
    expect(cli(['tools', 'trust', p.agenvoy], p.proj, p.home).code).toBe(0);
    expect(cli(['tools', 'trust', '--revoke', p.agenvoy], p.proj, p.home).stdout).toContain(`no longer trusted ${p.agenvoy}`);
    expect(cli(['tools', 'list'], p.proj, p.home).stdout).not.toContain('script_json_pick');
  });

  it('trust on the project folder approves the project tool folders inside it', () => {
    const p = project();
    const out = cli(['tools', 'trust', '.'], p.proj, p.home);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`trusted ${p.agenvoy}`);
    expect(out.stdout).toContain(`trusted ${p.omp}`);
    const list = cli(['tools', 'list'], p.proj, p.home);
    expect(list.stdout).toContain('script_json_pick');
    expect(list.stdout).toMatch(/^pwn \(disabled\)/m);
    expect(list.stdout).not.toContain('untrusted project folder');
  });

  it('refuses a path that is not a folder, and a missing PATH, with a clear message', () => {
    const p = project();
    const missing = cli(['tools', 'trust', 'nope'], p.proj, p.home);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${join(p.proj, 'nope')} is not a folder`);
    const none = cli(['tools', 'trust'], p.proj, p.home);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('missing the PATH');
    expect(existsSync(join(p.home, 'td', 'settings.json')) ? readFileSync(join(p.home, 'td', 'settings.json'), 'utf8') : '').not.toContain('nope');
  });
});
