// Secrets for tools through the real runner and a real sandboxed process: env injection, the
// Agenvoy-compatible key endpoint reached from inside bubblewrap, and redaction of everything printed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunner } from '../../electron/runtime/runner/create-runner.ts';
import { startKeyEndpoint, type KeyEndpoint } from '../../electron/runtime/runner/key-endpoint.ts';
import { mapSecretResolver } from '../../electron/runtime/runner/secret-resolver.ts';
import { loadPowerShellModules } from '../../electron/runtime/sources/powershell/index.ts';
import { countingContext, entriesOf } from '../support/module-tool-fixtures.ts';
import { tempHomes } from '../support/temp-homes.ts';

const SECRET = 'sk-live-9b1c7e44d2';
// Encodes differently in every form: `+`/`/` in base64, `%40 %20 %2F` in a URL.
const ODD = 'p@ss w/rd~>?';
const tmp = () => mkdtempSync(join(tmpdir(), 'td-'));
const homes = tempHomes();
const home = homes.make();

describe('secrets for tool processes', () => {
  let endpoint: KeyEndpoint;
  beforeAll(async () => {
    endpoint = await startKeyEndpoint();
  });
  afterAll(() => {
    endpoint.close();
    homes.removeAll();
  });

  const node = (script: string, secrets: string[], extra: { onStdout?: (t: string) => void; resultChannel?: boolean } = {}) => {
    const toolDir = tmp();
    return createRunner({ resolveSecrets: mapSecretResolver({ API_KEY: SECRET, OTHER_KEY: 'other-value-123', ODD_KEY: ODD }), keyEndpoint: endpoint })({
      command: process.execPath,
      args: ['-e', script],
      cwd: toolDir,
      timeoutMs: 10_000,
      secrets,
      ...extra,
      sandbox: { mode: 'required', toolDir, network: true, homeDir: home },
    });
  };

  it('gives the declared secret to the process as an env var and redacts it from stdout, stderr and the channel', async () => {
    const chunks: string[] = [];
    const r = await node(
      `console.log('len', process.env.API_KEY.length, 'other', process.env.OTHER_KEY ?? 'absent'); console.log(process.env.API_KEY); console.error('err ' + process.env.API_KEY); require('fs').writeSync(3, JSON.stringify({ k: process.env.API_KEY }));`,
      ['API_KEY'],
      { onStdout: (t) => chunks.push(t), resultChannel: true },
    );
    expect(r.sandboxed).toBe(true);
    expect(r.stdout).toContain(`len ${SECRET.length} other absent`);
    expect(r.stdout).toContain('[secret:API_KEY]');
    expect(r.stderr).toContain('err [secret:API_KEY]');
    expect(r.channel).toBe('{"k":"[secret:API_KEY]"}');
    const everything = [r.stdout, r.stderr, r.channel, chunks.join('')].join('\n');
    expect(everything).not.toContain(SECRET);
  });

  it('redacts the base64 and URL-encoded forms a tool prints, not only the literal value', async () => {
    const chunks: string[] = [];
    const r = await node(
      `const k = process.env.ODD_KEY; const b = Buffer.from(k);
       console.log('auth Basic-less', b.toString('base64'), 'url', b.toString('base64url'));
       console.error('query ?token=' + encodeURIComponent(k) + '&form=' + new URLSearchParams({ k }).toString().slice(2));
       require('fs').writeSync(3, JSON.stringify({ header: 'Bearer ' + b.toString('base64') }));`,
      ['ODD_KEY'],
      { onStdout: (t) => chunks.push(t), resultChannel: true },
    );
    expect(r.stdout).toBe('auth Basic-less [secret:ODD_KEY] url [secret:ODD_KEY]\n');
    expect(r.stderr).toContain('query ?token=[secret:ODD_KEY]&form=[secret:ODD_KEY]');
    expect(r.channel).toBe('{"header":"Bearer [secret:ODD_KEY]"}');
    const everything = [r.stdout, r.stderr, r.channel, chunks.join('')].join('\n');
    for (const form of [ODD, Buffer.from(ODD).toString('base64'), Buffer.from(ODD).toString('base64url'), encodeURIComponent(ODD)]) expect(everything).not.toContain(form);
  });

  it('serves declared names to the run over TOOLDESK_KEY_URL with TOOLDESK_TOKEN, and nothing else', async () => {
    const script = `
      const get = (name, token) => fetch(process.env.TOOLDESK_KEY_URL + '?key=' + name, token ? { headers: { authorization: 'Bearer ' + token } } : {})
        .then(async (r) => r.status + ' ' + JSON.stringify(await r.json()));
      (async () => {
        console.log('declared', await get('API_KEY', process.env.TOOLDESK_TOKEN));
        console.log('undeclared', await get('OTHER_KEY', process.env.TOOLDESK_TOKEN));
        console.log('notoken', await get('API_KEY'));
      })();`;
    const r = await node(script, ['API_KEY']);
    expect(r.stdout).toContain('declared 200 {"key":"API_KEY","value":"[secret:API_KEY]"}');
    expect(r.stdout).toContain('undeclared 403 {"error":"key not registered"}');
    expect(r.stdout).toMatch(/notoken 401/);
    expect(r.stdout).not.toContain(SECRET);
  });

  it('fails before running when a declared secret has no value, naming it and how to set it', async () => {
    const r = await node('console.log("ran")', ['MISSING_KEY']);
    expect(r.stdout).toBe('');
    expect(r.spawnError).toBe('missing secret: MISSING_KEY. Set it in Settings → Secrets, or run `tooldesk secrets set MISSING_KEY`.');
  });

  it('reads "secrets" from a PowerShell # TOOL_CONFIG for every function of the file, and says when it is malformed', async () => {
    const root = tmp();
    writeFileSync(join(root, 'quotes.ps1'), '# TOOL_CONFIG: {"secrets": ["QUOTES_TOKEN"]}\nfunction Get-Quote { param([string]$Symbol) "x" }\nfunction Get-Other { "y" }\n');
    writeFileSync(join(root, 'broken.ps1'), '# TOOL_CONFIG: {"secrets": "QUOTES_TOKEN"}\nfunction Get-Broken { "z" }\n');
    const loaded = await loadPowerShellModules(entriesOf(root, 'powershell'), countingContext());
    const byName = new Map(loaded.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
    expect(byName.get('Get-Quote')?.secrets).toEqual(['QUOTES_TOKEN']);
    expect(byName.get('Get-Other')?.secrets).toEqual(['QUOTES_TOKEN']);
    expect(byName.get('Get-Broken')?.secrets).toBeUndefined();
    expect(loaded.diagnostics).toContainEqual(expect.objectContaining({ file: join(root, 'broken.ps1'), message: '"secrets" in # TOOL_CONFIG must be an array of key names; ignored', code: 'bad-secrets' }));
  });
});
