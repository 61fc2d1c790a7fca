// Issue #37: the docs a newcomer can trust. The README is a front page of at most 150 lines whose
// table of contents reaches every page; every link resolves (pages and anchors); no table cell is
// a wall of text; the generated pages (commands, settings) are what their generators write; every
// settings key has its sentence; every tool example is a file under docs/examples/ that discovery
// loads without a problem; every JSON settings example passes the settings schema.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { SETTINGS_DESCRIPTIONS } from '../../electron/runtime/store/settings-descriptions.ts';
import { validateSettings } from '../../electron/runtime/store/validate-settings.ts';
import { parseMcpServers } from '../../electron/runtime/sources/mcp/config/server-config.ts';
import { anchorsOf, docPages, fences, links, tableCells } from '../support/docs/markdown-pages.ts';
import { settingsKeyPaths } from '../support/docs/settings-page.ts';
import { GENERATED_PAGES } from '../support/docs/write-docs.ts';
import { removeScratch, repoRoot, runCli, scratchInCheckout } from '../support/run-cli.ts';

const pages = docPages();
const byPath = new Map(pages.map((p) => [p.path, p]));

afterAll(removeScratch);

/** Every file below `dir` with its size and time: what a test run must not change. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stat = statSync(join(dir, name));
      return `${name} ${stat.size} ${stat.mtimeMs}`;
    });
}

describe('the docs', () => {
  it('README is a front page of at most 150 lines, and its table of contents reaches every page', () => {
    const readme = byPath.get('README.md')!;
    expect(readme.text.split('\n').length).toBeLessThanOrEqual(150);
    const linked = new Set(links(readme).map((l) => normalize(l.target.split('#')[0]!)));
    const unreached = pages.filter((p) => p.path !== 'README.md' && p.path !== 'docs/README.md' && !linked.has(p.path));
    expect(unreached.map((p) => p.path)).toEqual([]);
  });

  it('every relative link reaches a file, and every anchor a heading of its page', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const { target, line } of links(page)) {
        if (/^(https?|mailto):/.test(target)) continue;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const path = file === '' ? page.path : normalize(join(dirname(page.path), file));
        if (!existsSync(join(repoRoot, path))) {
          broken.push(`${page.path}:${line}: ${target} (no such file)`);
          continue;
        }
        const to = byPath.get(path);
        if (anchor && to && !anchorsOf(to).has(anchor)) broken.push(`${page.path}:${line}: ${target} (no heading #${anchor} in ${path})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no table cell is over 300 characters', () => {
    const long = pages.flatMap((p) => tableCells(p).filter((c) => c.cell.length > 300).map((c) => `${p.path}:${c.line}: ${c.cell.length} characters`));
    expect(long).toEqual([]);
  });

  it('the generated pages are what their generators write (`npm run docs`)', async () => {
    for (const [page, make] of Object.entries(GENERATED_PAGES)) {
      const written = existsSync(join(repoRoot, page)) ? readFileSync(join(repoRoot, page), 'utf8') : '(missing)';
      expect(written, `${page} is stale: run \`npm run docs\``).toBe(await make());
    }
  });

  it('every settings key has its sentence, and every sentence a key', () => {
    const keys = settingsKeyPaths();
    expect(keys.filter((k) => !SETTINGS_DESCRIPTIONS[k])).toEqual([]);
    expect(Object.keys(SETTINGS_DESCRIPTIONS).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it('every code example of a tool is a file under docs/examples/, word for word', () => {
    const problems: string[] = [];
    for (const fence of pages.flatMap(fences)) {
      const file = /^file: (\S+)$/.exec(fence.note ?? '')?.[1];
      if (!file) {
        if (['python', 'ts', 'js', 'powershell'].includes(fence.lang)) problems.push(`${fence.page}:${fence.line}: a ${fence.lang} example with no <!-- file: docs/examples/… --> above it`);
        continue;
      }
      if (!file.startsWith('docs/examples/') || !existsSync(join(repoRoot, file))) problems.push(`${fence.page}:${fence.line}: ${file} does not exist under docs/examples/`);
      else if (readFileSync(join(repoRoot, file), 'utf8').trimEnd() !== fence.body.trimEnd()) problems.push(`${fence.page}:${fence.line}: differs from ${file}`);
    }
    expect(problems).toEqual([]);
  });

  it('discovery loads every example tool with no problem but a missing interpreter', async () => {
    // A copy: loading writes smart-load caches (`<name>.tool.json`) beside the scripts, and a test
    // run must leave the checkout as it found it.
    const examples = join(repoRoot, 'docs/examples/tools');
    const before = filesUnder(examples);
    const scratch = scratchInCheckout('docs-examples-');
    const root = join(scratch, 'tools');
    cpSync(examples, root, { recursive: true });
    const checked = await runCli(join(scratch, 'home'), ['tools', 'check', '--json', '--root', root]);
    const report = JSON.parse(checked.stdout) as { diagnostics: Array<{ code?: string; severity: string; file: string; message: string }>; groups?: unknown[] };
    // pwsh cannot be installed on every machine: its example is then listed but cannot run.
    expect(report.diagnostics.filter((d) => d.code !== 'interpreter-missing')).toEqual([]);
    expect(filesUnder(examples)).toEqual(before);
  });

  it('every example skill loads, its name matching its folder, and nothing in it is flagged', async () => {
    const home = join(repoRoot, '.cache', `docs-skills-${process.pid}`);
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ skillRoots: [join(repoRoot, 'docs/examples/skills')] }));
    const listed = JSON.parse((await runCli(home, ['skills', 'list', '--json'])).stdout) as Array<{ name: string }> | { skills: Array<{ name: string }> };
    const names = (Array.isArray(listed) ? listed : listed.skills).map((s) => s.name);
    expect(names).toContain('release-notes');
    const checked = await runCli(home, ['skills', 'check']);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    const tools = await runCli(home, ['tools', 'check']);
    expect(tools.stdout).not.toMatch(/SKILL\.md:\d+: (warning|error)/);
  });

  it('every JSON settings example passes the settings schema', () => {
    const checked: string[] = [];
    const problems: string[] = [];
    for (const fence of pages.flatMap(fences).filter((f) => f.lang === 'json' && f.note === 'settings')) {
      const example = JSON.parse(fence.body) as Record<string, unknown>;
      const result = validateSettings({ ...defaultSettings(), ...example });
      // MCP servers are checked entry by entry, as the app reads them.
      const servers = parseMcpServers(example.mcpServers ?? {}).diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
      checked.push(`${fence.page}:${fence.line}`);
      if (result.length || servers.length) problems.push(`${fence.page}:${fence.line}: ${[...result, ...servers].join('; ')}`);
    }
    expect(problems).toEqual([]);
    expect(checked.length).toBeGreaterThan(0);
  });
});
