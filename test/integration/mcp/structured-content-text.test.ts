// Issue #36 item 14: an MCP result with `structuredContent` keeps the server's own text for people
// and the model; the structured data stays the result's data and, when it holds more than the
// text, a variable the model is told about. Real CLI, a real reference server and a fixture
// shaped like the budget-allocator example.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');
const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const SUMMARY = join(REPO, 'test/fixtures/mcp/summary-server.mjs');

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

function homeWith(servers: Record<string, unknown>): string {
  const home = mkdtempSync('/var/tmp/td-structured-');
  homes.push(home);
  mkdirSync(join(home, '.tooldesk'));
  const groupDefaults = Object.fromEntries(Object.keys(servers).map((name) => [name, true]));
  writeFileSync(join(home, '.tooldesk', 'settings.json'), JSON.stringify({ mcpServers: servers, groupDefaults }));
  return home;
}

function runJson(home: string, tool: string, args: unknown) {
  const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: join(home, '.tooldesk') };
  const run = spawnSync(process.execPath, [BIN, 'tools', 'run', tool, '--args', JSON.stringify(args), '--yes', '--json'], { cwd: home, env, encoding: 'utf8', timeout: 90_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('structuredContent beside the server text', () => {
  it('server-filesystem read_text_file: the model reads the file, not {"content": …} JSON', () => {
    const home = homeWith({});
    const docs = join(home, 'docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'note.txt'), 'line one\n"quoted" line two\n');
    writeFileSync(join(home, '.tooldesk', 'settings.json'), JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [FILESYSTEM, docs], sandbox: 'off' } }, groupDefaults: { files: true } }));
    const result = runJson(home, 'files__read_text_file', { path: join(docs, 'note.txt') });
    expect(result.status).toBe('SUCCESS');
    expect(result.finalText).toBe('line one\n"quoted" line two\n');
    expect(result.data).toEqual({ content: 'line one\n"quoted" line two\n' });
    // The structured content only wraps the text: no second copy in the variables.
    expect(result.cacheVarStructured).toBeUndefined();
  }, 120_000);

  it('a summary beside a large structuredContent: the summary for the model, the JSON in a variable it is told about', () => {
    const home = homeWith({ budget: { command: process.execPath, args: [SUMMARY], sandbox: 'off' } });
    const result = runJson(home, 'budget__budget', {});
    expect(result.status).toBe('SUCCESS');
    expect(result.finalText.split('\n').slice(0, 15).join('\n')).toMatch(/^Budget: 100 000 EUR, 120 categories\nCategory 0: 0 EUR/);
    expect(result.finalText).not.toContain('"history"');
    expect(result.finalText.length).toBeLessThan(1000);
    expect(result.data.categories).toHaveLength(120);
    expect(result.cacheVarStructured).toMatch(/^budget__budget_.+_structured$/);
    expect(result.finalText).toContain(`ReadVar {"name": "${result.cacheVarStructured}"}`);
  }, 120_000);
});
