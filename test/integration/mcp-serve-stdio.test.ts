// `tooldesk mcp serve` over stdio as a real child process, driven by the MCP SDK's own client:
// every tool format listed and callable, approvals through elicitation (accept, decline, reject
// with a reason, a client that cannot ask), progress, cancel and disconnect kill the tool's
// process, hot reload announces list_changed, misbehaving requests get clear errors.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { auditDir } from '../../electron/runtime/audit/audit-log.ts';
import { waitNoneWithMarker } from '../support/live-processes.ts';
import { CLI, connectStdio, serveHome, textOf, type ElicitAnswer, type ServeHome } from '../support/mcp-serve-harness.ts';

/** Today's file of the one audit log, where `mcp serve` writes its entries (kind `mcp-serve`) beside the decisions. */
const auditLog = (home: string) => join(auditDir(home), `${new Date().toISOString().slice(0, 10)}.jsonl`);

const uniqueSeconds = () => `${40 + Math.floor(Math.random() * 50)}.${Date.now() % 100000}${Math.floor(Math.random() * 1000)}`;
const liveWith = (marker: string): boolean => {
  try {
    return execFileSync('pgrep', ['-f', `sleep ${marker}`]).toString().trim() !== '';
  } catch {
    return false;
  }
};
async function waitFor(check: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('mcp serve over stdio, with a client that answers approvals', () => {
  let serve: ServeHome;
  let client: Client;
  const questions: string[] = [];
  let answer: (message: string) => ElicitAnswer = () => ({ action: 'accept', content: { decision: 'once' } });
  let listChanged = 0;

  beforeAll(async () => {
    serve = serveHome();
    ({ client } = await connectStdio(serve, {
      elicit: (message) => {
        questions.push(message);
        return answer(message);
      },
    }));
    client.setNotificationHandler('notifications/tools/list_changed', () => void listChanged++);
  }, 40_000);
  afterAll(async () => {
    await client?.close();
    serve?.cleanup();
  });

  it('lists the tools of every format with schemas and policy annotations', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    // python, powershell, script (js + py), three-layer, module; plus ReadVar/ListVars
    for (const name of ['word_count', 'Get-FolderSize', 'script_json_pick', 'script_word_stats', 'unit_convert', 'countdown', 'guarded_echo', 'ReadVar', 'ListVars']) {
      expect(byName.has(name), `${name} in ${[...byName.keys()].join(', ')}`).toBe(true);
    }
    expect(byName.get('word_count')!.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(byName.get('ReadVar')!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('word_count')!.annotations?.readOnlyHint).toBe(false);
    expect(byName.get('guarded_echo')!.annotations?.destructiveHint).toBe(true);
    expect(byName.get('guarded_echo')!._meta).toMatchObject({ 'tooldesk/executionPolicy': 'ask-always', 'tooldesk/format': 'python' });
    expect(byName.get('word_count')!.description).toContain('Count the words');
  });

  it('calls a tool of each format through the executor', async () => {
    const calls: [string, Record<string, unknown>, string][] = [
      ['word_count', { text: 'one two three' }, '"count":3'],
      ['script_json_pick', { json: '{"a": {"b": [1, 2]}}', path: 'a.b.1' }, '2'],
      ['script_word_stats', { text: 'alpha beta alpha' }, 'alpha'],
      ['unit_convert', { value: 2, from_unit: 'km', to_unit: 'm' }, '2000'],
      ['countdown', { from: 2, interval_ms: 1 }, 'Lift-off after 2 steps'],
    ];
    for (const [name, args, expected] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${textOf(result)}`).toBe(false);
      expect(textOf(result).replace(/\s+/g, ' ')).toContain(expected.replace(/\s+/g, ' '));
    }
    // PowerShell cannot run on this machine: the call fails with a clear message, nothing hangs.
    const ps = await client.callTool({ name: 'Get-FolderSize', arguments: { Path: '.' } });
    if (ps.isError) expect(textOf(ps)).toMatch(/pwsh|PowerShell/i);
  });

  it('keeps _result variables per connection, readable by ReadVar and as resources', async () => {
    const result = await client.callTool({ name: 'word_count', arguments: { text: 'a b c d', unit: 'words' } });
    const variable = (result._meta as Record<string, string>)['tooldesk/resultVariable']!;
    expect(variable).toMatch(/^word_count_mcp_\w+_result$/);
    const read = await client.callTool({ name: 'ReadVar', arguments: { name: variable } });
    expect(textOf(read)).toContain('"count":4');
    const { resources } = await client.listResources();
    const uri = `tooldesk://variables/${encodeURIComponent(variable)}`;
    expect(resources.map((r) => r.uri)).toContain(uri);
    const contents = await client.readResource({ uri });
    expect((contents.contents[0] as { text: string }).text).toContain('"count":4');
    await expect(client.readResource({ uri: 'tooldesk://variables/nope' })).rejects.toThrow(/No variable/);
    // $VAR_REF resolves against this connection's variables
    const ref = await client.callTool({ name: 'word_count', arguments: { text: `$VAR_REF{{${variable}}}`, unit: 'characters' } });
    expect(textOf(ref)).toMatch(/"count":\d+/);
  });

  it('asks an ask-always tool through elicitation every time, until approved for this connection', async () => {
    questions.length = 0;
    answer = () => ({ action: 'accept', content: { decision: 'once' } });
    expect(textOf(await client.callTool({ name: 'guarded_echo', arguments: { text: 'hi' } }))).toContain('echo: hi');
    expect(textOf(await client.callTool({ name: 'guarded_echo', arguments: { text: 'hi' } }))).toContain('echo: hi');
    expect(questions).toHaveLength(2);
    expect(questions[0]).toContain('guarded_echo');
    expect(questions[0]).toContain('"text": "hi"');
    answer = () => ({ action: 'accept', content: { decision: 'connection' } });
    await client.callTool({ name: 'guarded_echo', arguments: { text: 'again' } });
    await client.callTool({ name: 'guarded_echo', arguments: { text: 'again' } });
    expect(questions).toHaveLength(3);
  });

  it('a rejection with a reason reaches the result, and a decline rejects', async () => {
    answer = () => ({ action: 'accept', content: { decision: 'reject', reason: 'not on a Friday' } });
    const rejected = await client.callTool({ name: 'guarded_echo', arguments: { text: 'friday' } });
    expect(rejected.isError).toBe(true);
    expect(textOf(rejected)).toContain('not on a Friday');
    expect((rejected._meta as Record<string, string>)['tooldesk/status']).toBe('EXECUTION_REJECTED');
    answer = () => ({ action: 'decline' });
    const declined = await client.callTool({ name: 'guarded_echo', arguments: { text: 'declined' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/Declined in the MCP client "tooldesk-test-host"/);
  });

  it('asks about results under resultApprovalPolicy always, and withholds a rejected one', async () => {
    questions.length = 0;
    answer = () => ({ action: 'accept', content: { decision: 'reject', reason: 'too loud' } });
    const withheld = await client.callTool({ name: 'checked_upper', arguments: { text: 'secret plan' } });
    expect(questions[0]).toContain('SECRET PLAN');
    expect(withheld.isError).toBe(true);
    expect(textOf(withheld)).toContain('too loud');
    expect(textOf(withheld)).not.toContain('SECRET PLAN');
    answer = () => ({ action: 'accept', content: { decision: 'once' } });
    expect(textOf(await client.callTool({ name: 'checked_upper', arguments: { text: 'fine' } }))).toContain('FINE');
  });

  it('sends progress notifications from onUpdate when the client sent a progress token', async () => {
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'countdown', arguments: { from: 3, interval_ms: 5 } }, { onprogress: (p) => progress.push(p) });
    expect(result.isError).toBe(false);
    expect(progress.map((p) => p.message)).toEqual(expect.arrayContaining(['3…', '2…', '1…']));
    expect(progress.map((p) => p.progress)).toEqual([...progress.keys()].map((i) => i + 1));
  });

  it('cancelling a call kills its process', async () => {
    const seconds = uniqueSeconds();
    const controller = new AbortController();
    const call = client.callTool({ name: 'script_sleeper', arguments: { seconds } }, { signal: controller.signal });
    expect(await waitFor(() => liveWith(seconds))).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await waitNoneWithMarker(`sleep\u0000${seconds}`, 5000)).toEqual([]);
    // the connection still works
    expect(textOf(await client.callTool({ name: 'word_count', arguments: { text: 'x' } }))).toContain('"count":1');
  });

  it('answers misbehaving requests with clear errors and keeps serving', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool: no_such_tool/);
    await expect(client.callTool({ name: 'word_cout', arguments: {} })).rejects.toThrow(/word_count/);
    const bad = await client.callTool({ name: 'word_count', arguments: { text: 42 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/`text`: expected string/);
    // 10 MB of arguments: validated and answered like any call (the text is long, not wrong)
    const big = await client.callTool({ name: 'word_count', arguments: { text: 'a '.repeat(5 * 1024 * 1024), unit: 'characters' } });
    expect(textOf(big)).toContain(`"count":${10 * 1024 * 1024}`);
    const parallel = await Promise.all(Array.from({ length: 100 }, (_, i) => client.callTool({ name: 'script_json_pick', arguments: { json: `{"n": ${i}}`, path: 'n' } })));
    expect(parallel.every((r) => !r.isError)).toBe(true);
    expect(parallel.map((r) => textOf(r))).toEqual(Array.from({ length: 100 }, (_, i) => expect.stringContaining(`${i}`)));
  }, 120_000);

  it('announces tools/list_changed on hot reload and offers the new tool', async () => {
    const before = listChanged;
    writeFileSync(join(serve.root, 'guarded.py'), `${readFileSync(join(serve.root, 'guarded.py'), 'utf8')}\n\ndef fresh_tool(n: int) -> int:\n    """Double n.\n\n    Args:\n        n: A number.\n    """\n    return n * 2\n\n\nfresh_tool.executionPolicy = "auto"\n`);
    expect(await waitFor(() => listChanged > before, 15_000)).toBe(true);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('fresh_tool');
    expect(textOf(await client.callTool({ name: 'fresh_tool', arguments: { n: 21 } }))).toContain('42');
  }, 30_000);

  it('writes every call, approval and result to the audit log; `mcp log` is `tooldesk audit`, saying so', async () => {
    const file = auditLog(serve.home);
    expect(existsSync(file)).toBe(true);
    const entries = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.some((e) => e.event === 'approval' && e.tool === 'guarded_echo' && e.decision === 'reject' && e.reason === 'not on a Friday')).toBe(true);
    expect(entries.some((e) => e.event === 'result' && e.tool === 'checked_upper' && e.status === 'RESULT_REJECTED')).toBe(true);
    const big = entries.find((e) => e.event === 'call' && typeof e.args === 'string');
    expect(String(big?.args).length).toBeLessThan(5000);
    const alias = spawnSync(process.execPath, [CLI, 'mcp', 'log', '--limit', '0'], { env: serve.env, encoding: 'utf8' });
    expect(alias.status).toBe(0);
    expect(alias.stderr).toBe('`mcp log` is now `tooldesk audit`\n');
    expect(alias.stdout).toMatch(/ {2}rejected guarded_echo {2}by user-reject {2}level default {2}→ EXECUTION_REJECTED in \d+ ms {2}\[stdio-\d+ mcp_\w+\]/);
    expect(alias.stdout).toMatch(/ {2}allowed {2}word_count {2}by policy auto {2}level default {2}→ SUCCESS in \d+ ms/);
    expect(alias.stdout).toBe(execFileSync(process.execPath, [CLI, 'audit', '--limit', '0'], { env: serve.env }).toString());
    // The audit's options are the alias's.
    const rejected = spawnSync(process.execPath, [CLI, 'mcp', 'log', '--decision', 'rejected', '--tool', 'guarded_echo', '--json'], { env: serve.env, encoding: 'utf8' });
    const rejectedEntries = rejected.stdout.trim().split('\n').map((l) => JSON.parse(l) as { decision: string; tool: string });
    expect(rejectedEntries.length).toBeGreaterThan(0);
    expect(rejectedEntries.every((e) => e.decision === 'rejected' && e.tool === 'guarded_echo')).toBe(true);
  });
});

describe('mcp serve over stdio, other clients', () => {
  let serve: ServeHome;
  beforeAll(() => {
    serve = serveHome();
  });
  afterAll(() => serve?.cleanup());

  it('refuses an asking tool for a client without elicitation, naming the setting; nothing runs', async () => {
    const { client } = await connectStdio(serve);
    try {
      const result = await client.callTool({ name: 'guarded_echo', arguments: { text: 'unasked' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('guarded_echo');
      expect(textOf(result)).toContain('tooldesk tools policy guarded_echo auto');
      // Nobody was asked, so nobody refused: the text says so, and how the server's owner allows it.
      expect(textOf(result)).toContain('guarded_echo was not run: it needs approval, and nobody could be asked. Approval could not be asked: the MCP client');
      expect(textOf(result)).toContain('Whoever runs this Tooldesk server can allow it without asking: `tooldesk rules add allow guarded_echo`');
      expect(textOf(result)).not.toContain('did not allow');
      expect(textOf(result)).toContain('Settings');
      const result2 = await client.callTool({ name: 'checked_upper', arguments: { text: 'x' } });
      expect(textOf(result2)).toContain('tooldesk tools policy checked_upper --result never');
      // an auto tool still runs
      expect(textOf(await client.callTool({ name: 'word_count', arguments: { text: 'a b' } }))).toContain('"count":2');
    } finally {
      await client.close();
    }
    const log = readFileSync(auditLog(serve.home), 'utf8');
    expect(log).toMatch(/"event":"approval","tool":"guarded_echo".*"decision":"reject".*"asked":false/);
    expect(log).not.toContain('"event":"result","tool":"guarded_echo","callId":"x","status":"SUCCESS"');
    expect(log).not.toMatch(/echo: unasked/);
  }, 40_000);

  it('after `tools policy NAME auto` the same tool runs for that client', async () => {
    const set = execFileSync(process.execPath, [CLI, 'tools', 'policy', 'guarded_echo', 'auto', '--root', serve.root], { env: serve.env }).toString();
    expect(set).toBe('guarded_echo: run auto, result never (your override)\n');
    const { client } = await connectStdio(serve);
    try {
      expect(textOf(await client.callTool({ name: 'guarded_echo', arguments: { text: 'now' } }))).toContain('echo: now');
    } finally {
      await client.close();
    }
    execFileSync(process.execPath, [CLI, 'tools', 'policy', 'guarded_echo', '--reset', '--root', serve.root], { env: serve.env });
  }, 40_000);

  it('--group narrows the offer to that group (plus ReadVar/ListVars)', async () => {
    const { client, stderr } = await connectStdio(serve, { args: ['--group', 'text_stats', '--group', 'nonexistent'] });
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual(['ListVars', 'ReadVar', 'top_words', 'word_count']);
      await expect(client.callTool({ name: 'script_json_pick', arguments: { json: '{}' } })).resolves.toMatchObject({ isError: true });
      expect(stderr()).toContain('--group nonexistent: no such group');
    } finally {
      await client.close();
    }
  }, 40_000);

  it('negotiates the 2026-07-28 revision with a client in auto mode, approvals included', async () => {
    const { client } = await connectStdio(serve, { mode: 'auto', elicit: () => ({ action: 'accept', content: { decision: 'once' } }) });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('guarded_echo');
      expect(textOf(await client.callTool({ name: 'guarded_echo', arguments: { text: 'modern' } }))).toContain('echo: modern');
      // 2026-07-28 delivers list changes on a subscriptions/listen stream
      let changed = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
      const subscription = await client.listen({ toolsListChanged: true });
      // guarded.py's group is enabled: a tool added there is offered at once
      writeFileSync(join(serve.root, 'guarded.py'), `${readFileSync(join(serve.root, 'guarded.py'), 'utf8')}\n\ndef modern_extra() -> str:\n    """Added while listening."""\n    return "x"\n`);
      expect(await waitFor(() => changed > 0, 15_000)).toBe(true);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('modern_extra');
      await subscription.close();
    } finally {
      await client.close();
    }
  }, 40_000);

  it('a client that disconnects mid-call gets its processes killed', async () => {
    const { client, transport } = await connectStdio(serve);
    const seconds = uniqueSeconds();
    const call = client.callTool({ name: 'script_sleeper', arguments: { seconds } }).catch(() => undefined);
    expect(await waitFor(() => liveWith(seconds))).toBe(true);
    const server = transport.pid;
    await client.close();
    await call;
    expect(await waitNoneWithMarker(`sleep\u0000${seconds}`, 8000)).toEqual([]);
    if (server) expect(await waitFor(() => !existsSync(`/proc/${server}/stat`) || readFileSync(`/proc/${server}/stat`, 'utf8').includes(') Z'), 8000)).toBe(true);
  }, 40_000);
});
