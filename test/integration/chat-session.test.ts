// The agent loop end to end: real SessionManager, real ToolExecutor, real openai client against
// the fake server (a real HTTP server), sessions persisted in a tmp TOOLDESK_HOME.
import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResultMessage } from '../../shared/chat.ts';
import { SessionManager } from '../../electron/runtime/chat/persistence/session-manager.ts';
import { openSettingsStore } from '../../electron/runtime/store/settings-store.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../support/fake-openai-server.ts';
import { demoGroup, fakeProviderSettings, makeManager, recordEvents, staticTools, tmpHome, type DemoLog } from '../support/chat-harness.ts';

let server: FakeOpenAIServer | undefined;
const managers: SessionManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) m.closeAll();
  await server?.close();
  server = undefined;
});

async function setup(turns: FakeTurn[], options: { groupEnabled?: boolean; log?: DemoLog; systemPrompt?: string } = {}) {
  server = await startFakeOpenAI({ turns });
  const home = tmpHome();
  const log = options.log ?? { running: 0, maxConcurrent: 0, calls: [] };
  const settings = openSettingsStore(home);
  fakeProviderSettings(settings, server.url);
  settings.update({ groupDefaults: { demo: options.groupEnabled ?? true }, systemPrompt: options.systemPrompt ?? 'You are a test.' });
  const manager = new SessionManager({ home, settings, tools: staticTools([demoGroup(log)]) });
  managers.push(manager);
  return { home, settings, manager, log, server };
}

const toolMessages = (body: { messages: Array<{ role: string; content: string; tool_call_id?: string }> }) => body.messages.filter((m) => m.role === 'tool');

describe('chat session: the agent loop', () => {
  it('runs a full tool-calling turn and feeds the result back', async () => {
    const { manager, server } = await setup([fakeTurn.toolCall('echo', { text: 'héllo' }), fakeTurn.reasoning('done thinking', 'The tool said héllo.')]);
    const session = manager.create();
    const rec = recordEvents(session);
    const sent = session.send('please echo');
    expect(sent.ok).toBe(true);
    const outcome = await (sent as { done: Promise<{ stopReason: string }> }).done;
    expect(outcome.stopReason).toBe('stop');

    const [first, second] = server.chatRequests();
    expect(first!.body.messages[0]).toMatchObject({ role: 'system' });
    expect(first!.body.messages[0].content).toMatch(/^You are a test\.\n\n[\s\S]*Demo tools: use echo/);
    expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(expect.arrayContaining(['echo', 'guarded', 'ReadVar']));
    expect(toolMessages(second!.body)).toEqual([{ role: 'tool', tool_call_id: 'call_0_0', content: 'echo: héllo' }]);

    const roles = session.messages().map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const last = session.messages().at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', content: 'The tool said héllo.', reasoning: 'done thinking', stopReason: 'stop' });
    expect(session.info.title).toBe('please echo');
    expect(rec.types()).toEqual(expect.arrayContaining(['session.turn', 'session.message', 'session.delta', 'tool.started', 'tool.finished', 'variables.changed']));
    expect(rec.types()[0]).toBe('session.turn');
    expect(rec.events.at(-1)).toMatchObject({ type: 'session.turn', state: 'finished', stopReason: 'stop' });
    const deltas = rec.events.filter((e) => e.type === 'session.delta' && e.text).map((e) => (e as { text: string }).text).join('');
    expect(deltas).toBe('The tool said héllo.');
  });

  it('runs parallel tool calls concurrently and returns results in call order', async () => {
    const log: DemoLog = { running: 0, maxConcurrent: 0, calls: [] };
    const { manager, server } = await setup(
      [fakeTurn.parallel([{ name: 'slow', args: { ms: 250 } }, { name: 'slow', args: { ms: 50 } }, { name: 'echo', args: { text: 'x' } }]), fakeTurn.text('ok')],
      { log },
    );
    const session = manager.create();
    recordEvents(session);
    const start = Date.now();
    const outcome = await (session.send('go') as { done: Promise<{ stopReason: string }> }).done;
    expect(outcome.stopReason).toBe('stop');
    expect(log.maxConcurrent).toBe(3);
    expect(Date.now() - start).toBeLessThan(1500);
    expect(toolMessages(server.chatRequests()[1]!.body).map((m) => m.content)).toEqual(['slept 250', 'slept 50', 'echo: x']);
  });

  it('invalid JSON arguments and unknown tools become results the model can act on', async () => {
    const { manager, server } = await setup([
      { toolCalls: [{ name: 'echo', arguments: '{"text": "unterminated' }, { name: 'no_such_tool', arguments: '{}' }] },
      fakeTurn.text('sorry'),
    ]);
    const session = manager.create();
    recordEvents(session);
    await (session.send('go') as { done: Promise<unknown> }).done;
    const tools = session.messages().filter((m): m is ToolResultMessage => m.role === 'tool');
    expect(tools.map((m) => m.result.status)).toEqual(['ERROR', 'NOT_FOUND']);
    const sent = toolMessages(server.chatRequests()[1]!.body);
    expect(sent[0]!.content).toMatch(/not valid JSON/);
    expect(sent[1]!.content).toMatch(/Tool "no_such_tool" does not exist/);
  });

  it('stops at the step bound', async () => {
    const { manager, settings } = await setup([]);
    settings.set('limits.maxSteps', 2);
    server!.setScript((_req, i) => fakeTurn.toolCall('echo', { text: `step ${i}` }));
    const session = manager.create();
    recordEvents(session);
    const outcome = await (session.send('loop forever') as { done: Promise<{ stopReason: string; error?: { message: string } }> }).done;
    expect(outcome.stopReason).toBe('max-steps');
    expect(outcome.error?.message).toMatch(/limits\.maxSteps/);
    expect(server!.chatRequests()).toHaveLength(2);
  });

  it('reports provider errors as a finished turn with the message', async () => {
    const { manager } = await setup([fakeTurn.error(400, 'bad things')]);
    const session = manager.create();
    const rec = recordEvents(session);
    const outcome = await (session.send('hi') as { done: Promise<{ stopReason: string; error?: { message: string } }> }).done;
    expect(outcome.stopReason).toBe('error');
    expect(outcome.error?.message).toMatch(/Fake AI .* refused the request with HTTP 400: bad things/);
    expect(session.messages().at(-1)).toMatchObject({ role: 'assistant', stopReason: 'error' });
    expect(rec.events.at(-1)).toMatchObject({ type: 'session.turn', state: 'finished', stopReason: 'error' });
    expect(session.send('')).toMatchObject({ ok: false });
  });
});

describe('chat session: approvals', () => {
  it('reject with a reason: the reason reaches the model in the next request', async () => {
    const { manager, server } = await setup([fakeTurn.toolCall('guarded', { what: 'rm' }), fakeTurn.text('understood')]);
    const session = manager.create();
    const rec = recordEvents(session, () => ({ decision: 'reject', reason: 'not on a Sunday' }));
    await (session.send('do it') as { done: Promise<unknown> }).done;
    const [tool] = toolMessages(server.chatRequests()[1]!.body);
    expect(tool!.content).toMatch(/not on a Sunday/);
    expect(rec.types()).toEqual(expect.arrayContaining(['approval.requested', 'approval.resolved']));
    const requested = rec.events.find((e) => e.type === 'approval.requested');
    expect(requested).toMatchObject({ request: { toolName: 'guarded', args: { what: 'rm' }, type: 'execution', policy: 'ask-always' } });
    expect(readFileSync(`${manager.dir}/${session.id}.jsonl`, 'utf8')).toMatch(/"t":"approval".*not on a Sunday/);
  });

  it('once asks again next time; session does not; always writes the settings override', async () => {
    const call = fakeTurn.toolCall('guarded', { what: 'x' });
    const { manager, settings, server, home } = await setup([call, fakeTurn.text('1'), call, fakeTurn.text('2')]);
    const session = manager.create();
    let asked = 0;
    const answers: Array<'once' | 'session' | 'always'> = ['once', 'session'];
    recordEvents(session, () => ({ decision: answers[asked++] ?? 'once' }));
    await (session.send('a') as { done: Promise<unknown> }).done;
    await (session.send('b') as { done: Promise<unknown> }).done;
    expect(asked).toBe(2); // 'once' did not stick for an ask-always tool
    server.setScript([call, fakeTurn.text('3')]);
    await (session.send('c') as { done: Promise<unknown> }).done;
    expect(asked).toBe(2); // 'session' did
    // The ask-once memory survives a restart.
    manager.closeAll();
    const again = new SessionManager({ home, settings, tools: staticTools([demoGroup()]) });
    managers.push(again);
    const reopened = again.open(session.id);
    let askedAfter = 0;
    recordEvents(reopened, () => (askedAfter++, { decision: 'always' }));
    server.setScript([call, fakeTurn.text('4'), fakeTurn.toolCall('guarded', { what: 'other' }), fakeTurn.text('5')]);
    await (reopened.send('d') as { done: Promise<unknown> }).done;
    expect(askedAfter).toBe(0);
    await (reopened.send('e') as { done: Promise<unknown> }).done;
    expect(askedAfter).toBe(1);
    expect(settings.get().permissionOverrides.guarded).toEqual({ executionPolicy: 'auto' });
  });

  it('without anyone listening, approvals are rejected, never allowed', async () => {
    const { manager, server, log } = await setup([fakeTurn.toolCall('guarded', {}), fakeTurn.text('ok')]);
    const session = manager.create();
    await (session.send('x') as { done: Promise<unknown> }).done;
    expect(log.calls).not.toContain('guarded');
    expect(toolMessages(server.chatRequests()[1]!.body)[0]!.content).toMatch(/No one is there to approve/);
  });
});

describe('chat session: abort', () => {
  it('abort during streaming keeps the partial answer and ends the turn as aborted', async () => {
    const { manager } = await setup([{ text: 'word '.repeat(200), deltaChars: 5, delayMs: 10 }]);
    const session = manager.create();
    const rec = recordEvents(session);
    session.onEvent((e) => {
      if (e.type === 'session.delta' && rec.events.filter((x) => x.type === 'session.delta').length === 3) session.abort();
    });
    const start = Date.now();
    const outcome = await (session.send('talk') as { done: Promise<{ stopReason: string }> }).done;
    expect(Date.now() - start).toBeLessThan(1500);
    expect(outcome.stopReason).toBe('aborted');
    const last = session.messages().at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
    expect((last as { content: string }).content.length).toBeGreaterThan(0);
    expect(session.running).toBe(false);
  });

  it('abort during a tool run stops the tool; abort during an approval drops the card', async () => {
    const { manager, server } = await setup([fakeTurn.parallel([{ name: 'slow', args: { ms: 10_000 } }, { name: 'guarded', args: {} }]), fakeTurn.text('after')]);
    const session = manager.create();
    const rec = recordEvents(session);
    session.onEvent((e) => {
      if (e.type === 'approval.requested') setTimeout(() => session.abort(), 20);
    });
    const start = Date.now();
    const outcome = await (session.send('go') as { done: Promise<{ stopReason: string }> }).done;
    expect(Date.now() - start).toBeLessThan(3000);
    expect(outcome.stopReason).toBe('aborted');
    expect(rec.events).toContainEqual(expect.objectContaining({ type: 'approval.resolved', decision: null }));
    // The tool's onUpdate surfaces as a progress event of its call.
    expect(rec.events).toContainEqual({ type: 'tool.progress', sessionId: session.id, callId: 'call_0_0', update: { text: 'working…' } });
    expect(session.pendingApprovals()).toEqual([]);
    const results = session.messages().filter((m): m is ToolResultMessage => m.role === 'tool').map((m) => m.result.status);
    expect(results).toEqual(['ERROR', 'EXECUTION_REJECTED']);
    expect(server.chatRequests()).toHaveLength(1);
    // The next turn still works and the model sees both results of the aborted step.
    server.setScript([fakeTurn.text('fine')]);
    await (session.send('again') as { done: Promise<unknown> }).done;
    expect(toolMessages(server.chatRequests().at(-1)!.body)).toHaveLength(2);
  });
});

describe('chat session: persistence', () => {
  it('restart and resume: history, variables and ReadVar of an old result survive', async () => {
    const { manager, home, settings } = await setup([fakeTurn.toolCall('big', { lines: 3000 }), fakeTurn.text('that was long')]);
    const session = manager.create();
    recordEvents(session);
    await (session.send('make it big') as { done: Promise<unknown> }).done;
    const tool = session.messages().find((m): m is ToolResultMessage => m.role === 'tool')!;
    expect(tool.result.isTruncated).toBe(true);
    const varName = tool.result.cacheVarResult!;
    expect(varName).toBe('big_call_0_0_result');
    const id = session.id;
    manager.closeAll();

    // A new process: new settings store, new manager, nothing shared in memory.
    settings.close();
    const settings2 = openSettingsStore(home);
    const manager2 = new SessionManager({ home, settings: settings2, tools: staticTools([demoGroup()]) });
    managers.push(manager2);
    expect(manager2.list().map((s) => s.id)).toEqual([id]);
    const reopened = manager2.open(id);
    expect(reopened.messages().map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(reopened.tools.variables.peek(varName)?.value.split('\n')).toHaveLength(3000);
    recordEvents(reopened);
    const read = await reopened.runTool('ReadVar', { name: varName, start: 0, length: 20 });
    expect(read.status).toBe('SUCCESS');
    expect(read.finalText).toContain('line 1\nline 2');
    // $VAR_REF resolves against the restored variables too (slash path).
    await (reopened.send(`/echo {"text": "$VAR_REF{{${varName}:0:6}}"}`) as { done: Promise<unknown> }).done;
    expect(reopened.messages().at(-1)).toMatchObject({ role: 'tool', content: 'echo: line 1' });
  });

  it('a large tool result is stored once (in its variable), bounded in the message', async () => {
    const { manager, home, settings } = await setup([fakeTurn.toolCall('big', { lines: 150_000 }), fakeTurn.text('ok')]);
    const session = manager.create();
    const rec = recordEvents(session);
    await (session.send('make it huge') as { done: Promise<unknown> }).done;
    const tool = session.messages().find((m): m is ToolResultMessage => m.role === 'tool')!;
    const varName = tool.result.cacheVarResult!;
    const whole = session.tools.variables.peek(varName)!.value;
    expect(whole.length).toBeGreaterThan(1_500_000);
    expect(tool.result.data).toBeUndefined();
    expect(tool.cut).toMatchObject({ data: whole.length + 2, formattedText: whole.length });
    expect(tool.result.formattedText!.length).toBeLessThan(70_000);
    expect(tool.result.formattedText).toMatch(new RegExp(`the whole text is in variable ${varName}\\]$`));
    const finished = rec.events.find((e) => e.type === 'tool.finished');
    expect(finished).toMatchObject({ result: { formattedText: tool.result.formattedText } });
    // The file holds the text once (the variable) plus small change, not data + text + variable.
    const file = `${manager.dir}/${session.id}.jsonl`;
    const { size } = statSync(file);
    expect(size).toBeLessThan(JSON.stringify(whole).length + 200_000);
    manager.closeAll();

    const manager2 = new SessionManager({ home, settings, tools: staticTools([demoGroup()]) });
    managers.push(manager2);
    const reopened = manager2.open(session.id);
    expect(reopened.messages().find((m) => m.role === 'tool')).toEqual(tool);
    recordEvents(reopened);
    const read = await reopened.runTool('ReadVar', { name: varName, start: whole.length - 11, length: 11 });
    expect(read.finalText).toContain('line 150000');
  });

  it('a torn final line is skipped with a warning; the session keeps working', async () => {
    const { manager, home, settings } = await setup([fakeTurn.text('first answer'), fakeTurn.text('second answer')]);
    const session = manager.create();
    await (session.send('hello') as { done: Promise<unknown> }).done;
    const file = `${manager.dir}/${session.id}.jsonl`;
    manager.closeAll();
    appendFileSync(file, '{"t":"message","at":1,"message":{"id":"x","role":"user","cont');

    const manager2 = new SessionManager({ home, settings, tools: staticTools([demoGroup()]) });
    managers.push(manager2);
    const reopened = manager2.open(session.id);
    expect(manager2.warnings.get(session.id)?.[0]).toMatch(/last line was cut off/);
    expect(reopened.messages().map((m) => m.role)).toEqual(['user', 'assistant']);
    await (reopened.send('again') as { done: Promise<unknown> }).done;
    manager2.closeAll();

    const manager3 = new SessionManager({ home, settings, tools: staticTools([demoGroup()]) });
    managers.push(manager3);
    const third = manager3.open(session.id);
    expect(manager3.warnings.has(session.id)).toBe(false);
    expect(third.messages().map((m) => (m as { content: string }).content)).toEqual(['hello', 'first answer', 'again', 'second answer']);
  });

  it('deleting a session during a turn stops it and leaves no file behind', async () => {
    const { manager } = await setup([{ text: 'word '.repeat(100), deltaChars: 5, delayMs: 10 }]);
    const session = manager.create();
    recordEvents(session);
    const sent = session.send('talk') as { done: Promise<{ stopReason: string }> };
    await new Promise<void>((resolve) => session.onEvent((e) => e.type === 'session.delta' && resolve()));
    expect(manager.delete(session.id)).toBe(true);
    expect((await sent.done).stopReason).toBe('aborted');
    expect(readdirSync(manager.dir)).toEqual([]);
  });

  it('lists, renames, searches and deletes sessions', async () => {
    const { manager } = makeManager(tmpHome());
    managers.push(manager);
    const a = manager.create({ title: 'Groceries list' });
    const b = manager.create();
    recordEvents(b);
    await (b.send('/echo {"text": "plan the trip to Lisbon"}') as { done: Promise<unknown> }).done;
    expect(b.info.title).toBe('/echo {"text": "plan the trip to Lisbon"}');
    manager.rename(b.id, 'Trip to Lisbon');
    // A session without a message is not listed (issue 15: "+ New chat" stores nothing visible until its first message).
    expect(manager.list().map((s) => s.title)).toEqual(['Trip to Lisbon']);
    expect(manager.exists(a.id)).toBe(true);
    expect(manager.search('lisbon').map((h) => h.session.id)).toEqual([b.id]);
    expect(manager.delete(a.id)).toBe(true);
    expect(manager.delete(a.id)).toBe(false);
    expect(manager.list().map((s) => s.id)).toEqual([b.id]);
    expect(() => manager.open('../etc')).toThrow(/No session/);
  });
});

describe('chat session: no provider', () => {
  it('runs /tool {json} and /tool through the executor; other text explains what is missing', async () => {
    const { manager, settings } = makeManager(tmpHome());
    managers.push(manager);
    settings.set('groupDefaults', { demo: true });
    const session = manager.create();
    const rec = recordEvents(session, () => ({ decision: 'once' }));
    const run = async (text: string) => (session.send(text) as { done: Promise<{ stopReason: string; error?: { message: string } }> }).done;

    expect(await run('/echo {"text": "hi"}')).toMatchObject({ stopReason: 'stop' });
    expect(session.messages().at(-1)).toMatchObject({ role: 'tool', toolName: 'echo', content: 'echo: hi', result: { status: 'SUCCESS' } });
    expect(await run('/guarded')).toMatchObject({ stopReason: 'stop' });
    expect(rec.types()).toContain('approval.requested');
    // An unknown /tool is answered at once and recorded nowhere (issue 14).
    const count = session.messages().length;
    const unknown = await run('/ech {}');
    expect(unknown).toMatchObject({ stopReason: 'error' });
    expect(unknown.error?.message).toMatch(/No tool named "ech" — did you mean \/echo/);
    expect(session.messages()).toHaveLength(count);
    const bad = await run('/echo {"text": ');
    expect(bad.error?.message).toMatch(/not valid JSON/);
    const plain = await run('hello there');
    expect(plain.error?.message).toMatch(/No model provider is configured/);
  });
});

describe('chat session: corrupt settings', () => {
  it('a corrupt settings file is backed up, defaults apply with a warning, and sessions still work', async () => {
    const home = tmpHome();
    writeFileSync(`${home}/settings.json`, '{"providers": [ {"id": ');
    const { manager, settings } = makeManager(home);
    managers.push(manager);
    expect(settings.warnings[0]).toMatch(/could not be used: it is not valid JSON.*saved as .*settings\.json\.corrupt-/);
    expect(readdirSync(home).filter((f) => f.startsWith('settings.json.corrupt-'))).toHaveLength(1);
    settings.set('groupDefaults', { demo: true });
    const session = manager.create();
    recordEvents(session);
    const outcome = await (session.send('/echo {"text": "still here"}') as { done: Promise<{ stopReason: string }> }).done;
    expect(outcome.stopReason).toBe('stop');
    expect(session.messages().at(-1)).toMatchObject({ content: 'echo: still here' });
  });
});

describe('chat session: tools and settings follow changes', () => {
  it('applies registry changes and enable-state changes to an open session', async () => {
    const home = tmpHome();
    const settings = openSettingsStore(home);
    let groups = [demoGroup()];
    const listeners = new Set<(change?: { added: string[]; removed: string[]; updated: string[] }) => void>();
    const tools = {
      groups: () => groups,
      onChanged: (l: (change?: { added: string[]; removed: string[]; updated: string[] }) => void) => (listeners.add(l), () => listeners.delete(l)),
    };
    const manager = new SessionManager({ home, settings, tools });
    managers.push(manager);
    const session = manager.create();
    const names = () => session.tools.definitions().map((d) => d.function.name).sort();
    expect(names()).toEqual([]); // groups start disabled
    settings.set('groupDefaults', { demo: true });
    expect(names()).toEqual(['ListVars', 'ReadVar', 'big', 'echo', 'guarded', 'slow']);
    settings.set('toolDefaults', { big: false });
    expect(names()).not.toContain('big');
    const extra = { name: 'extra', tools: [{ ...demoGroup().tools[0]!, definition: { type: 'function' as const, function: { name: 'ping', parameters: { type: 'object' } } } }] };
    groups = [...groups, extra];
    settings.set('groupDefaults', { demo: true, extra: true });
    for (const l of listeners) l({ added: ['extra'], removed: [], updated: [] });
    expect(names()).toContain('ping');
    groups = [extra];
    for (const l of listeners) l({ added: [], removed: ['demo'], updated: [] });
    expect(names()).toEqual(['ListVars', 'ReadVar', 'ping']);
    manager.closeAll();
    expect(listeners.size).toBe(0);
  });
});
