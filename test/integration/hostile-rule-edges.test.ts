// Issue #32 items 4, 5, 6, 7 and 14: a deny rule on `~/private/**` must hold against every way a
// real tool reads a path — `~//x` and `~user` (Python's expanduser, the reference filesystem
// server), a symlink followed before `..`, a relative path in the folder the tool really runs in
// (a Python module in its own folder, a module tool in its tools root), `/proc/self/cwd` and a
// planted link to it, whitespace the tool strips — and against arguments the user edited on the
// approval card. An allow rule never covers such a path. Real tools loaded by discovery, run by
// the real runner (default sandbox) and executor, files and symlinks in a temp home; each case
// is an escape when the secret text comes back.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolRule } from '../../shared/permissions.ts';
import { defaultSettings, type Settings } from '../../shared/settings.ts';
import type { ToolExecuteResult } from '../../shared/tools.ts';
import { auditDir, fileAuditWriter, readAudit } from '../../electron/runtime/audit/audit-log.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { shutdownHosts } from '../../electron/runtime/sources/module/host-pool.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import type { McpManager } from '../../electron/runtime/sources/mcp/mcp-manager.ts';
import { argsHash, bookCallGuard } from '../../electron/runtime/tools/rules/book-call-guard.ts';
import { RuleBook } from '../../electron/runtime/tools/rules/rule-book.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import type { ApprovalCallback, ToolGroup } from '../../electron/runtime/tools/types.ts';
import { testManager } from '../support/mcp-servers.ts';
import { realPython } from '../support/real-python.ts';
import { repoRoot } from '../support/run-cli.ts';
import { tempHomes } from '../support/temp-homes.ts';

const SECRET = 'SECRET-TEXT-7f3a';
const PRIVATE_DENY: ToolRule = { action: 'deny', tool: '*', where: [{ path: 'path', glob: '~/private/**' }], reason: 'private stays private' };
const FILESYSTEM = join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

const homes = tempHomes();
let home: string;
let work: string;
let groups: ToolGroup[];
let manager: McpManager | undefined;
/** Every case run, and those whose call returned the secret. */
const ledger = { cases: 0, escapes: [] as string[] };

beforeAll(async () => {
  home = homes.make();
  mkdirSync(join(home, 'private'));
  writeFileSync(join(home, 'private/secret.txt'), SECRET);
  mkdirSync(join(home, 'pub'));
  writeFileSync(join(home, 'pub/ok.txt'), 'public text');
  symlinkSync(join(home, 'private'), join(home, 'pub/link'));
  // Planted by a tool that could write the home: a link that means "where the reading process
  // runs" (two folders below the home for the tools here, one more than the link itself).
  mkdirSync(join(home, 'pub/a'));
  symlinkSync('/proc/self/cwd', join(home, 'pub/a/here'));
  // The working folder is three levels down; the tools root two: `../../private` differs.
  work = join(home, 'projects/app/src');
  mkdirSync(work, { recursive: true });
  const root = join(home, '.td/tools');
  mkdirSync(join(root, 'opener'), { recursive: true });
  writeFileSync(
    join(root, 'reader.py'),
    [
      'import os',
      '',
      'def read_home_file(path: str) -> str:',
      '    """Read a text file; ~ forms expanded and surrounding spaces taken off, as users expect.',
      '',
      '    Args:',
      '        path: The file.',
      '    """',
      '    with open(os.path.expanduser(path.strip())) as f:',
      '        return f.read()',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(root, 'opener/tool.json'),
    JSON.stringify({ name: 'open_path', description: 'Open a path as given (the kernel resolves it).', always_allow: true, parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }),
  );
  writeFileSync(join(root, 'opener/script.py'), 'import json, os, sys\np = json.load(sys.stdin)["path"]\nprint(open(p.replace("~", os.environ["HOME"], 1) if p.startswith("~/") else p).read())\n');
  writeFileSync(
    join(root, 'mod_reader.mjs'),
    [
      "import { readFileSync } from 'node:fs';",
      'export default () => ({',
      "  name: 'read_relative',",
      "  description: 'Read a file named relative to where the tool runs',",
      "  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },",
      "  async execute(_id, params) { return { content: [{ type: 'text', text: readFileSync(params.path, 'utf8') }] }; },",
      '});',
      '',
    ].join('\n'),
  );
  const loaded = await discoverTools([root], createSourceContext(settingsWith([]), join(home, '.tooldesk')));
  groups = loaded.groups;
  const names = groups.flatMap((g) => g.tools.map((t) => t.definition.function.name));
  expect(names, JSON.stringify(loaded.diagnostics)).toEqual(expect.arrayContaining(['read_home_file', 'script_open_path', 'read_relative']));
}, 120_000);

afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

afterAll(async () => {
  await shutdownHosts();
  homes.removeAll();
  console.log(`hostile rule edges: ${ledger.cases} cases, ${ledger.escapes.length} escapes${ledger.escapes.map((e) => `\n  ESCAPE ${e}`).join('')}`);
});

function settingsWith(toolRules: ToolRule[]): Settings {
  return { ...defaultSettings(), toolRules, workingDir: work, pythonPath: realPython(), extraEnv: { HOME: home } };
}

/**
 * An executor over the loaded tools with these rules, at level `trusted` unless told (what no rule
 * stops runs without asking); `approve` answers every card (default: no).
 */
function executor(toolRules: ToolRule[], options: { approve?: ApprovalCallback; extraGroups?: ToolGroup[]; level?: 'default' | 'trusted' } = {}) {
  const settings = settingsWith(toolRules);
  const book = new RuleBook({ get: () => settings, onDidChange: () => () => {} }, { home, audit: fileAuditWriter(auditDir(join(home, '.tooldesk'))) });
  const asked: string[] = [];
  const ex = new ToolExecutor({
    sessionId: 'rule-edges',
    guard: bookCallGuard(book),
    toolTimeoutMs: 30_000,
    permissionLevel: options.level ?? 'trusted',
    approve: async (request, signal) => (asked.push(JSON.stringify(request.args)), options.approve ? options.approve(request, signal) : { decision: 'reject', reason: 'not asked in this test' }),
  });
  for (const group of [...groups, ...(options.extraGroups ?? [])]) {
    ex.registerToolGroup(group);
    ex.toggleGroupEnabled(group.name, true);
  }
  return { ex, asked };
}

/** Runs one hostile call: it must end as `status` and never hand back the secret. */
async function attack(ex: ToolExecutor, tool: string, path: string, status = 'EXECUTION_REJECTED'): Promise<ToolExecuteResult> {
  ledger.cases++;
  const result = await ex.execute(tool, { path });
  const text = `${result.finalText}${JSON.stringify(result.data ?? '')}`;
  if (text.includes(SECRET)) ledger.escapes.push(`${tool} ${JSON.stringify(path)}`);
  // Soft: every case of a test runs and is counted, also when an earlier one failed.
  expect.soft(text, `${tool} ${JSON.stringify(path)} read the secret`).not.toContain(SECRET);
  expect.soft(result.status, `${tool} ${JSON.stringify(path)}: ${result.finalText.slice(0, 300)}`).toBe(status);
  return result;
}

describe('a deny rule sees the path the tool will open', () => {
  it('~ followed by any number of slashes, and ~user, as expanduser reads them (item 4)', async () => {
    const { ex } = executor([PRIVATE_DENY, { action: 'deny', tool: '*', where: [{ path: 'path', prefix: '/etc' }], reason: 'system files' }]);
    for (const path of ['~//private/secret.txt', '~///private//secret.txt', '~/private/secret.txt']) {
      expect.soft((await attack(ex, 'read_home_file', path)).finalText).toContain('Denied by rule 1: private stays private');
    }
    // root's home (the password database, not $HOME) is /root: `~root/..` is /.
    expect.soft((await attack(ex, 'read_home_file', '~root/../etc/hostname')).finalText).toContain('Denied by rule 2: system files');
    // The control: a path no rule names runs.
    expect((await ex.execute('read_home_file', { path: '~//pub/ok.txt' })).status).toBe('SUCCESS');
  }, 60_000);

  it('~//x through the reference filesystem server (its expandHome path.join()s it into the home)', async () => {
    manager = testManager({ workingDir: work });
    await manager.configure({ files: { command: process.execPath, args: [FILESYSTEM, join(home, 'private'), join(home, 'pub')], env: { HOME: home } } }, { files: true });
    await manager.startAll();
    const { ex } = executor([PRIVATE_DENY], { extraGroups: manager.groups() });
    await attack(ex, 'files__read_text_file', '~//private/secret.txt');
    await attack(ex, 'files__read_text_file', '  ~/private/secret.txt');
    const control = await ex.execute('files__read_text_file', { path: '~//pub/ok.txt' });
    expect(control.finalText).toContain('public text');
  }, 60_000);

  it('a symlink is followed before `..`, as the kernel does (item 5)', async () => {
    const { ex } = executor([PRIVATE_DENY]);
    await attack(ex, 'script_open_path', '~/pub/link/../private/secret.txt');
    await attack(ex, 'script_open_path', `${home}/pub/link/../private/./secret.txt`);
    await attack(ex, 'script_open_path', `${home}/pub/link/../pub/link/secret.txt`);
    expect((await ex.execute('script_open_path', { path: '~/pub/ok.txt' })).status).toBe('SUCCESS');
  }, 60_000);

  it('an allow rule does not cover a path that reaches past its folder through a link and `..`', async () => {
    const allowPub: ToolRule = { action: 'allow', tool: 'read_home_file', where: [{ path: 'path', glob: '~/pub/**' }] };
    const { ex, asked } = executor([allowPub], { level: 'default' });
    // Not allowed by the rule, so the tool's policy (ask once) asks, and the answer here is no.
    await attack(ex, 'read_home_file', '~/pub/link/../private/secret.txt');
    await attack(ex, 'read_home_file', '~/pub/a/here/../../private/secret.txt');
    expect(asked).toHaveLength(2);
    expect((await ex.execute('read_home_file', { path: '~/pub/ok.txt' })).status).toBe('SUCCESS');
    expect(asked).toHaveLength(2);
  }, 60_000);

  it('a relative path is resolved where the tool runs: a Python module in its folder, a module tool in its root (item 6)', async () => {
    const { ex } = executor([PRIVATE_DENY]);
    await attack(ex, 'read_home_file', '../../private/secret.txt');
    await attack(ex, 'read_relative', '../../private/secret.txt');
    // In the working folder the same text names another file, which is not denied (and missing).
    expect((await ex.execute('script_open_path', { path: '../../private/secret.txt' })).status).toBe('ERROR');
  }, 60_000);

  it('/proc/self/cwd, a link planted to it, /dev/fd and /dev/stdin cannot be resolved: deny rules match them (item 6)', async () => {
    const { ex } = executor([PRIVATE_DENY]);
    await attack(ex, 'read_home_file', '/proc/self/cwd/../../private/secret.txt');
    await attack(ex, 'read_home_file', '~/pub/a/here/../../private/secret.txt');
    await attack(ex, 'read_relative', '/proc/self/cwd/../../private/secret.txt');
    for (const path of ['/dev/fd/0', '/dev/stdin', `/proc/${process.pid}/root${home}/private/secret.txt`]) await attack(ex, 'read_home_file', path);
  }, 60_000);

  it('paths with whitespace around them match in the trimmed form too (item 14)', async () => {
    const { ex } = executor([PRIVATE_DENY]);
    for (const path of [' ~/private/secret.txt', `\t${home}/private/secret.txt\n`, '~/private/secret.txt  ', '\u00a0~//private/secret.txt']) {
      await attack(ex, 'read_home_file', path);
    }
  }, 60_000);
});

describe('arguments edited on the approval card (item 7)', () => {
  const ask: ToolRule = { action: 'ask', tool: 'read_home_file' };

  it('are checked by the rules again: an edit into a denied path is denied, and the audit says so', async () => {
    const { ex, asked } = executor([PRIVATE_DENY, ask], { approve: async () => ({ decision: 'once', args: { path: '~/private/secret.txt' } }) });
    const result = await attack(ex, 'read_home_file', '~/pub/ok.txt');
    expect(result.finalText).toContain('Denied by rule 1: private stays private');
    expect(asked).toEqual([JSON.stringify({ path: '~/pub/ok.txt' })]);
    const last = readAudit(auditDir(join(home, '.tooldesk'))).at(-1)!;
    expect(last).toMatchObject({ decision: 'denied', by: 'rule', detail: 'rule 1', argsHash: argsHash({ path: '~/private/secret.txt' }) });
  }, 60_000);

  it('have their $VAR_REF resolved before the rules see them', async () => {
    const { ex } = executor([PRIVATE_DENY, ask], { approve: async () => ({ decision: 'once', args: { path: '$VAR_REF{{where}}' } }) });
    ex.variables.add('where', '~//private/secret.txt', 'USER_ADD');
    await attack(ex, 'read_home_file', '~/pub/ok.txt');
  }, 60_000);

  it('run when no rule stops them, and the audit line is the hash of what ran', async () => {
    const { ex } = executor([PRIVATE_DENY, ask], { approve: async () => ({ decision: 'once', args: { path: '~/pub/ok.txt' } }) });
    const result = await ex.execute('read_home_file', { path: '~/pub/other.txt' });
    expect(result.status, result.finalText).toBe('SUCCESS');
    expect(result.finalText).toContain('public text');
    const last = readAudit(auditDir(join(home, '.tooldesk'))).at(-1)!;
    expect(last).toMatchObject({ decision: 'allowed', by: 'user-once', argsHash: argsHash({ path: '~/pub/ok.txt' }) });
    expect(readFileSync(join(home, 'pub/ok.txt'), 'utf8')).toBe('public text');
  }, 60_000);
});
