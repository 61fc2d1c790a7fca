// Issue #32's attacks on the rules (items 4, 5, 6, 7, 14), shared by hostile-rule-edges.test.ts
// (one test per item) and the hostile corpus (its summary counts them). A temp home holds
// `private/secret.txt`, a link `pub/link -> private` and a planted `pub/a/here -> /proc/self/cwd`;
// real tools read paths as users' tools do — a Python module (expanduser + strip, run in its own
// folder), a script tool (opens the text as given, in the working folder), a module tool (reads
// relative to its tools root) and the reference filesystem server. Every attack must end
// EXECUTION_REJECTED; one whose call hands back the secret is an escape.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolRule } from '../../shared/permissions.ts';
import { defaultSettings, type Settings } from '../../shared/settings.ts';
import type { ApprovalDecision, ToolExecuteResult } from '../../shared/tools.ts';
import { auditDir, fileAuditWriter } from '../../electron/runtime/audit/audit-log.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import type { McpManager } from '../../electron/runtime/sources/mcp/mcp-manager.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import { bookCallGuard } from '../../electron/runtime/tools/rules/book-call-guard.ts';
import { RuleBook } from '../../electron/runtime/tools/rules/rule-book.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import type { ToolGroup } from '../../electron/runtime/tools/types.ts';
import { testManager } from './mcp-servers.ts';
import { realPython } from './real-python.ts';
import { repoRoot } from './run-cli.ts';
import { tempHomes } from './temp-homes.ts';

export const SECRET = 'SECRET-TEXT-7f3a';
export const PRIVATE_DENY: ToolRule = { action: 'deny', tool: '*', where: [{ path: 'path', glob: '~/private/**' }], reason: 'private stays private' };
export const ETC_DENY: ToolRule = { action: 'deny', tool: '*', where: [{ path: 'path', prefix: '/etc' }], reason: 'system files' };
const ALLOW_PUB: ToolRule = { action: 'allow', tool: 'read_home_file', where: [{ path: 'path', glob: '~/pub/**' }] };
const ASK_READ: ToolRule = { action: 'ask', tool: 'read_home_file' };
const FILESYSTEM = join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

export interface Attack {
  /** The issue's item. */
  item: '4' | '5' | '6' | '7' | '14';
  tool: string;
  path: string;
  rules: ToolRule[];
  /** `default`: what no rule decides asks (and is refused); else it runs without asking. */
  level?: 'default' | 'trusted';
  /** The arguments the user types on the approval card before saying yes (item 7). */
  edit?: Record<string, unknown>;
  /** A variable the edit refers to. */
  variable?: [string, string];
}

const deny = (item: Attack['item'], tool: string, path: string, rules = [PRIVATE_DENY]): Attack => ({ item, tool, path, rules });

export function attacks(home: string): Attack[] {
  const edited = (edit: Record<string, unknown>, variable?: [string, string]): Attack => ({ item: '7', tool: 'read_home_file', path: '~/pub/ok.txt', rules: [PRIVATE_DENY, ASK_READ], level: 'default', edit, ...(variable ? { variable } : {}) });
  return [
    deny('4', 'read_home_file', '~//private/secret.txt'),
    deny('4', 'read_home_file', '~///private//secret.txt'),
    deny('4', 'read_home_file', '~root/../etc/hostname', [ETC_DENY]),
    deny('4', 'files__read_text_file', '~//private/secret.txt'),
    deny('14', 'files__read_text_file', '  ~/private/secret.txt'),
    deny('5', 'script_open_path', '~/pub/link/../private/secret.txt'),
    deny('5', 'script_open_path', `${home}/pub/link/../private/./secret.txt`),
    deny('5', 'script_open_path', `${home}/pub/link/../pub/link/secret.txt`),
    { item: '5', tool: 'read_home_file', path: '~/pub/link/../private/secret.txt', rules: [ALLOW_PUB], level: 'default' },
    { item: '5', tool: 'read_home_file', path: '~/pub/a/here/../../private/secret.txt', rules: [ALLOW_PUB], level: 'default' },
    deny('6', 'read_home_file', '../../private/secret.txt'),
    deny('6', 'read_relative', '../../private/secret.txt'),
    deny('6', 'read_home_file', '/proc/self/cwd/../../private/secret.txt'),
    deny('6', 'read_home_file', '~/pub/a/here/../../private/secret.txt'),
    deny('6', 'read_relative', '/proc/self/cwd/../../private/secret.txt'),
    deny('6', 'read_home_file', '/dev/fd/0'),
    deny('6', 'read_home_file', '/dev/stdin'),
    deny('14', 'read_home_file', ' ~/private/secret.txt'),
    deny('14', 'read_home_file', `\t${home}/private/secret.txt\n`),
    deny('14', 'read_home_file', '~/private/secret.txt  '),
    deny('14', 'read_home_file', '\u00a0~//private/secret.txt'),
    edited({ path: '~/private/secret.txt' }),
    edited({ path: '$VAR_REF{{where}}' }, ['where', '~//private/secret.txt']),
  ];
}

export interface AttackResult {
  result: ToolExecuteResult;
  /** The call handed back the secret. */
  leaked: boolean;
  /** What the approval cards showed (JSON of their arguments). */
  asked: string[];
}

export interface RuleEdgeHome {
  home: string;
  work: string;
  /** The audit log's folder (every executor here writes it). */
  auditDir: string;
  executor(rules: ToolRule[], options?: { level?: 'default' | 'trusted'; approve?: (args: Record<string, unknown>) => ApprovalDecision }): { ex: ToolExecutor; asked: string[] };
  run(attack: Attack): Promise<AttackResult>;
  close(): Promise<void>;
}

/** Builds the home and loads its tools (the filesystem server starts on first use). */
export async function ruleEdgeHome(homes = tempHomes()): Promise<RuleEdgeHome> {
  const home = homes.make();
  mkdirSync(join(home, 'private'));
  writeFileSync(join(home, 'private/secret.txt'), SECRET);
  mkdirSync(join(home, 'pub/a'), { recursive: true });
  writeFileSync(join(home, 'pub/ok.txt'), 'public text');
  symlinkSync(join(home, 'private'), join(home, 'pub/link'));
  // Planted by a tool that could write the home: "where the reading process runs" (the tools'
  // folders are two below the home, one more than the link itself, so `..` folded early lies).
  symlinkSync('/proc/self/cwd', join(home, 'pub/a/here'));
  // The working folder is three levels down, the tools root two: `../../private` differs.
  const work = join(home, 'projects/app/src');
  mkdirSync(work, { recursive: true });
  const root = writeTools(join(home, '.td/tools'));
  const settingsWith = (toolRules: ToolRule[]): Settings => ({ ...defaultSettings(), toolRules, workingDir: work, pythonPath: realPython(), extraEnv: { HOME: home } });
  // The home's own helpers (warm Python, module hosts), closed with it.
  const pools = helperPools();
  const loaded = await discoverTools([root], createSourceContext(settingsWith([]), join(home, '.tooldesk'), { pools }));
  const groups: ToolGroup[] = loaded.groups;
  const names = groups.flatMap((g) => g.tools.map((t) => t.definition.function.name));
  for (const name of ['read_home_file', 'script_open_path', 'read_relative']) if (!names.includes(name)) throw new Error(`${name} did not load: ${JSON.stringify(loaded.diagnostics)}`);
  let manager: McpManager | undefined;
  const audit = auditDir(join(home, '.tooldesk'));

  const executor: RuleEdgeHome['executor'] = (rules, options = {}) => {
    const settings = settingsWith(rules);
    const book = new RuleBook({ get: () => settings, onDidChange: () => () => {} }, { home, audit: fileAuditWriter(audit) });
    const asked: string[] = [];
    const ex = new ToolExecutor({
      sessionId: 'rule-edges',
      guard: bookCallGuard(book),
      toolTimeoutMs: 30_000,
      permissionLevel: options.level ?? 'trusted',
      approve: async (request) => (asked.push(JSON.stringify(request.args)), options.approve ? options.approve(request.args) : { decision: 'reject', reason: 'refused in this test' }),
    });
    for (const group of [...groups, ...(manager?.groups() ?? [])]) {
      ex.registerToolGroup(group);
      ex.toggleGroupEnabled(group.name, true);
    }
    return { ex, asked };
  };

  return {
    home,
    work,
    auditDir: audit,
    executor,
    async run(attack) {
      if (attack.tool.startsWith('files__') && !manager) {
        manager = testManager({ workingDir: work });
        await manager.configure({ files: { command: process.execPath, args: [FILESYSTEM, join(home, 'private'), join(home, 'pub')], env: { HOME: home } } }, { files: true });
        await manager.startAll();
      }
      const { ex, asked } = executor(attack.rules, { level: attack.level ?? 'trusted', ...(attack.edit ? { approve: () => ({ decision: 'once', args: attack.edit }) } : {}) });
      if (attack.variable) ex.variables.add(attack.variable[0], attack.variable[1], 'USER_ADD');
      const result = await ex.execute(attack.tool, { path: attack.path });
      return { result, leaked: `${result.finalText}${JSON.stringify(result.data ?? '')}`.includes(SECRET), asked };
    },
    async close() {
      await manager?.close();
      await pools.close();
      homes.removeAll();
    },
  };
}

/** Every attack as a hostile-corpus outcome: a problem when it was not refused, an escape when it leaked. */
export async function ruleEdgeOutcomes(): Promise<Array<{ name: string; problems: string[]; escapes: string[]; crossCall: string[]; diagnostics: number; tools: number; ms: number }>> {
  const edges = await ruleEdgeHome();
  try {
    const outcomes = [];
    for (const attack of attacks(edges.home)) {
      const started = Date.now();
      const { result, leaked } = await edges.run(attack);
      const name = `rule-edge ${attack.item}: ${attack.tool} ${JSON.stringify(attack.path)}${attack.edit ? ` edited to ${JSON.stringify(attack.edit)}` : ''}`;
      const problems = result.status === 'EXECUTION_REJECTED' ? [] : [`${result.status}, expected EXECUTION_REJECTED: ${result.finalText.slice(0, 200)}`];
      outcomes.push({ name, problems, escapes: leaked ? ['the call read the secret a rule denies'] : [], crossCall: [], diagnostics: 0, tools: 1, ms: Date.now() - started });
    }
    return outcomes;
  } finally {
    await edges.close();
  }
}

function writeTools(root: string): string {
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
  const params = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
  writeFileSync(join(root, 'opener/tool.json'), JSON.stringify({ name: 'open_path', description: 'Open a path as given (the kernel resolves it).', always_allow: true, parameters: params }));
  writeFileSync(join(root, 'opener/script.py'), 'import json, os, sys\np = json.load(sys.stdin)["path"]\nprint(open(p.replace("~", os.environ["HOME"], 1) if p.startswith("~/") else p).read())\n');
  writeFileSync(
    join(root, 'mod_reader.mjs'),
    [
      "import { readFileSync } from 'node:fs';",
      'export default () => ({',
      "  name: 'read_relative',",
      "  description: 'Read a file named relative to where the tool runs',",
      `  parameters: ${JSON.stringify(params)},`,
      "  async execute(_id, params) { return { content: [{ type: 'text', text: readFileSync(params.path, 'utf8') }] }; },",
      '});',
      '',
    ].join('\n'),
  );
  return root;
}
