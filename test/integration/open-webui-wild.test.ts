// Issue #36 item 15: Open WebUI toolkits as they are found in the wild (fixtures shaped like the
// public ones that failed): an undeclared third-party import named by `tools check`; two toolkits
// with methods of one name both kept, qualified; `__request__` passed as None and said; method
// parameters written with pydantic Field(...) keep their description and required-ness; the last
// of two `class Tools` is the toolkit (as in Python); valve defaults taken from module constants.
// Real CLI, the image's python3 (pydantic 2, no aiohttp).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { realPython } from '../support/real-python.ts';
import { repoRoot, runCli } from '../support/run-cli.ts';

vi.setConfig({ testTimeout: 120_000 });

const python = realPython()!;
const base = mkdtempSync('/var/tmp/td-owui-wild-');
const root = join(base, 'tools');
cpSync(join(repoRoot, 'test/fixtures/tools/open-webui-wild'), root, { recursive: true });
writeFileSync(join(base, 'settings.json'), JSON.stringify({ pythonPath: python }));
afterAll(() => rmSync(base, { recursive: true, force: true }));

// One `tools check` and one `tools list` for every case (each CLI start counts on a busy machine).
let checked: { stdout: string };
let listing: Listed;
beforeAll(async () => {
  [checked, listing] = await Promise.all([runCli(base, ['tools', 'check', '--root', root]), runCli(base, ['tools', 'list', '--root', root, '--json']).then((r) => JSON.parse(r.stdout) as Listed)]);
}, 120_000);

type Listed = { groups: Array<{ name: string; tools: Array<{ name: string; format: string; parameters: Record<string, unknown>; meta?: { openWebUi?: { valves: Array<{ name: string; default: unknown }> } } }> }> };
const run = (tool: string, args: Record<string, unknown>) => runCli(base, ['tools', 'run', tool, '--root', root, '--args', JSON.stringify(args), '--yes']);

describe('Open WebUI toolkits in the wild', () => {
  it('tools check names an import the interpreter lacks, with the pip command; the other files load', async () => {
    const file = join(root, 'owui_undeclared_import.py');
    expect(checked.stdout).toContain(`${file}:7: warning: It imports aiohttp, which is not installed for ${python} (and not in its requirements): every call of its tools fails until it is installed [missing-import]`);
    expect(checked.stdout).toContain(`hint: Install it yourself (Tooldesk never installs packages): ${python} -m pip install aiohttp`);
    // pydantic and json are there: only aiohttp is named.
    expect(checked.stdout).not.toMatch(/It imports [^\n]*pydantic/);
  });

  it('two toolkits with methods of one name keep all their tools, qualified, each calling its own method', async () => {
    const groups = Object.fromEntries(listing.groups.map((g) => [g.name, g.tools.map((t) => t.name)]));
    expect(groups.imap_mailbox).toEqual(['imap_mailbox__list_folders', 'imap_mailbox__fetch_messages', 'imap_mailbox__search']);
    expect(groups.pop3_mailbox).toEqual(['pop3_mailbox__list_folders', 'pop3_mailbox__fetch_messages', 'pop3_mailbox__search', 'delete_message', 'mailbox_size', 'keep_alive']);
    expect(checked.stdout).toContain('list_folders() is also a tool of imap_mailbox: both are kept, this one as pop3_mailbox__list_folders');
    expect(checked.stdout).not.toContain('name-clash');
    const pop = await run('pop3_mailbox__fetch_messages', { folder: 'INBOX', count: 2 });
    expect(pop.code, pop.stderr).toBe(0);
    expect(pop.stdout).toContain('pop3: 2 messages');
    const imap = await run('imap_mailbox__list_folders', {});
    expect(imap.stdout).toContain('imap: INBOX, Sent, Archive');
  });

  it('a method taking __request__ runs with None, and check says so', async () => {
    expect(checked.stdout).toContain(`${join(root, 'owui_request_optional.py')}:11: warning: base_url() takes __request__, Open WebUI's HTTP request object, which Tooldesk cannot give: it gets None (code that reads it fails)`);
    const ran = await run('base_url', { path: '/docs' });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('http://localhost:8080/docs');
  });

  it('Field(...) parameters keep their description, default and required-ness', async () => {
    const tool = listing.groups.find((g) => g.name === 'owui_field_params')!.tools[0]!;
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for' },
        limit: { type: 'integer', default: 5, description: 'How many results' },
        language: { type: 'string', default: 'en', description: 'Two-letter language code' },
      },
      required: ['query'],
    });
    const ran = await run('search_docs', { query: 'valves' });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('5 results for valves (en)');
  });

  it('the last class Tools is the toolkit, as in Python, with a warning', async () => {
    const tools = listing.groups.find((g) => g.name === 'owui_two_classes')!.tools.map((t) => t.name);
    expect(tools).toEqual(['ping', 'echo']);
    expect(checked.stdout).toContain(`${join(root, 'owui_two_classes.py')}:16: warning: class Tools is defined again (first at line 7); the last definition is the one Python keeps`);
    expect((await run('ping', {})).stdout).toContain('pong');
  });

  it('valve defaults from module constants show their values', async () => {
    const tool = listing.groups.find((g) => g.name === 'owui_valve_constants')!.tools[0]!;
    expect(tool.meta?.openWebUi?.valves.map((v) => [v.name, v.default])).toEqual([
      ['BASE_URL', 'https://api.example.com/v1'],
      ['RETRIES', 3],
      ['TIMEOUT_S', 12.5],
    ]);
  });
});
