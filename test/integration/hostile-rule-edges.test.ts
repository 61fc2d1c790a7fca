// Issue #32 items 4, 5, 6, 7 and 14: a deny rule on `~/private/**` holds against every way a real
// tool reads a path — `~//x` and `~user` (Python's expanduser, the reference filesystem server), a
// symlink followed before `..`, a relative path in the folder the tool really runs in (a Python
// module in its own folder, a module tool in its tools root), `/proc/self/cwd` and a planted link
// to it, whitespace the tool strips — and against arguments the user edited on the approval card.
// An allow rule never covers such a path. The attacks live in test/support/rule-edge-attacks.ts
// (the hostile corpus counts them too); here each item's run, with the controls that show the
// tools really read what they are given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit } from '../../electron/runtime/audit/audit-log.ts';
import { argsHash } from '../../electron/runtime/tools/rules/book-call-guard.ts';
import { attacks, ETC_DENY, PRIVATE_DENY, ruleEdgeHome, SECRET, type Attack, type RuleEdgeHome } from '../support/rule-edge-attacks.ts';

let edges: RuleEdgeHome;
const ledger = { cases: 0, escapes: [] as string[] };

beforeAll(async () => {
  edges = await ruleEdgeHome();
}, 120_000);

afterAll(async () => {
  await edges?.close();
  console.log(`hostile rule edges: ${ledger.cases} cases, ${ledger.escapes.length} escapes${ledger.escapes.map((e) => `\n  ESCAPE ${e}`).join('')}`);
});

/** Runs every attack of the item: each must be refused and hand back nothing of the secret. */
async function runItem(item: Attack['item'], only?: (a: Attack) => boolean): Promise<void> {
  const list = attacks(edges.home).filter((a) => a.item === item && (only?.(a) ?? true));
  expect(list.length).toBeGreaterThan(0);
  for (const attack of list) {
    const { result, leaked } = await edges.run(attack);
    const what = `${attack.tool} ${JSON.stringify(attack.path)}${attack.edit ? ` edited to ${JSON.stringify(attack.edit)}` : ''}`;
    ledger.cases++;
    if (leaked) ledger.escapes.push(what);
    // Soft: every attack runs and is counted, also after one failed.
    expect.soft(leaked, `${what} read the secret`).toBe(false);
    expect.soft(result.status, `${what}: ${result.finalText.slice(0, 300)}`).toBe('EXECUTION_REJECTED');
  }
}

describe('a deny rule sees the path the tool will open', () => {
  it('~ followed by any number of slashes, and ~user, as expanduser and server-filesystem read them (item 4)', async () => {
    await runItem('4');
    // The controls: the same tools read what no rule names.
    const { ex } = edges.executor([PRIVATE_DENY, ETC_DENY]);
    const control = await ex.execute('read_home_file', { path: '~//pub/ok.txt' });
    expect(control.finalText).toContain('public text');
    const denied = await ex.execute('read_home_file', { path: '~root/../etc/hostname' });
    expect(denied.finalText).toContain('Denied by rule 2: system files');
  }, 60_000);

  it('a symlink is followed before `..`, as the kernel does; an allow rule does not cover such a path (item 5)', async () => {
    await runItem('5');
    const { ex, asked } = edges.executor([{ action: 'allow', tool: 'read_home_file', where: [{ path: 'path', glob: '~/pub/**' }] }], { level: 'default' });
    expect((await ex.execute('read_home_file', { path: '~/pub/ok.txt' })).finalText).toContain('public text');
    expect(asked).toEqual([]);
    expect((await edges.executor([PRIVATE_DENY]).ex.execute('script_open_path', { path: '~/pub/ok.txt' })).status).toBe('SUCCESS');
  }, 60_000);

  it('a relative path is resolved where the tool runs; /proc/self/cwd, /dev/fd, /dev/stdin and links to them cannot be resolved (item 6)', async () => {
    await runItem('6');
    // In the working folder the same text names another file, which no rule denies (and is missing).
    const open = await edges.executor([PRIVATE_DENY]).ex.execute('script_open_path', { path: '../../private/secret.txt' });
    expect(open.status).toBe('ERROR');
  }, 60_000);

  it('paths with whitespace around them match in the trimmed form too (item 14)', async () => {
    await runItem('14');
  }, 60_000);
});

describe('arguments edited on the approval card (item 7)', () => {
  it('go through $VAR_REF, validation and the rules again: an edit into a denied path is denied', async () => {
    await runItem('7');
    const last = readAudit(edges.auditDir).at(-1)!;
    expect(last).toMatchObject({ decision: 'denied', by: 'rule', detail: 'rule 1' });
  }, 60_000);

  it('the audit line of an edited call is the hash of the denied edit, or of what ran', async () => {
    const [first] = attacks(edges.home).filter((a) => a.item === '7');
    const { asked } = await edges.run(first!);
    expect(asked).toEqual([JSON.stringify({ path: '~/pub/ok.txt' })]);
    expect(readAudit(edges.auditDir).at(-1)).toMatchObject({ decision: 'denied', argsHash: argsHash({ path: '~/private/secret.txt' }) });
    const { ex } = edges.executor([PRIVATE_DENY, { action: 'ask', tool: 'read_home_file' }], { level: 'default', approve: () => ({ decision: 'once', args: { path: '~/pub/ok.txt' } }) });
    const ran = await ex.execute('read_home_file', { path: '~/pub/other.txt' });
    expect(ran.status, ran.finalText).toBe('SUCCESS');
    expect(ran.finalText).toContain('public text');
    expect(ran.finalText).not.toContain(SECRET);
    expect(readAudit(edges.auditDir).at(-1)).toMatchObject({ decision: 'allowed', by: 'user-once', argsHash: argsHash({ path: '~/pub/ok.txt' }) });
  }, 60_000);
});
