// Issue 14 in the chat engine, against the fake OpenAI server (real HTTP, the real openai client):
// budget mode with 1 000 tools and FindTools, per-chat tool selection, edited arguments, run
// again, cancelled calls, the inspection record, and $VAR_REF in the user's own message.
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResultMessage, UserMessage } from '../../shared/chat.ts';
import { SessionManager } from '../../electron/runtime/chat/persistence/session-manager.ts';
import { openSettingsStore } from '../../electron/runtime/store/settings-store.ts';
import type { Tool, ToolGroup } from '../../electron/runtime/tools/types.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer, type FakeScript, type FakeTurn } from '../support/fake-openai-server.ts';
import { demoGroup, fakeProviderSettings, recordEvents, staticTools, tmpHome } from '../support/chat-harness.ts';

let server: FakeOpenAIServer | undefined;
const managers: SessionManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) m.closeAll();
  await server?.close();
  server = undefined;
});

const names = (body: { tools?: Array<{ function: { name: string } }> }) => (body.tools ?? []).map((t) => t.function.name);
const done = async (sent: unknown) => (sent as { done: Promise<{ stopReason: string; error?: { message: string } }> }).done;

/** 1 000 tools in 50 groups, each with its own topic word, like generated Python modules. */
function manyGroups(calls: string[]): ToolGroup[] {
  return Array.from({ length: 50 }, (_, m) => ({
    name: `mod${m}`,
    tools: Array.from({ length: 20 }, (_, f): Tool => {
      const i = m * 20 + f;
      return {
        definition: {
          type: 'function',
          function: {
            name: `mod${m}_tool${f}`,
            description: `Tool ${f} of module ${m}: reports the forecast for topic${i} in a city over some days.`,
            parameters: {
              type: 'object',
              properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', description: 'Number of days' } },
              required: ['city'],
            },
          },
        },
        permission: { executionPolicy: 'auto' },
        execute: async (args) => {
          calls.push(`mod${m}_tool${f}`);
          return { data: `forecast ${i} for ${String(args.city)}` };
        },
      };
    }),
  }));
}

async function setup(script: FakeTurn[] | FakeScript, groups: ToolGroup[], enable: Record<string, boolean>) {
  server = await startFakeOpenAI(Array.isArray(script) ? { turns: script } : { script });
  const home = tmpHome();
  const settings = openSettingsStore(home);
  fakeProviderSettings(settings, server.url);
  settings.update({ groupDefaults: enable });
  const manager = new SessionManager({ home, settings, tools: staticTools(groups) });
  managers.push(manager);
  return { home, settings, manager, server };
}

describe('budget mode: 1 000 tools without flooding the context', () => {
  it('the model calls FindTools, then the tool it found, and gets its result', async () => {
    const calls: string[] = [];
    const groups = manyGroups(calls);
    const seen: string[][] = [];
    const script: FakeScript = (request, turn) => {
      seen.push(names(request.body));
      if (turn === 0) return fakeTurn.toolCall('FindTools', { query: 'forecast topic742' });
      if (turn === 1) {
        const found = JSON.parse(request.body.messages.at(-1).content.split('\n').slice(1).join('\n')) as Array<{ name: string }>;
        return fakeTurn.toolCall(found[0]!.name, { city: 'Lisbon', days: 2 });
      }
      return fakeTurn.text('It will be sunny.');
    };
    const { manager, server } = await setup(script, groups, Object.fromEntries(groups.map((g) => [g.name, true])));
    const session = manager.create();
    recordEvents(session);
    expect(await done(session.send('what is the forecast for topic742 in Lisbon?'))).toMatchObject({ stopReason: 'stop' });

    const [first, second, third] = server.chatRequests();
    // Without budget mode the request would carry 1 002 definitions.
    expect(seen[0]).toEqual(['ReadVar', 'ListVars', 'FindTools']);
    expect(first!.body.messages[0].content).toMatch(/## Finding tools\nThis chat has 1002 tools; 1000 of them are not listed/);
    expect(JSON.stringify(first!.body.tools).length).toBeLessThan(24_000);
    // What FindTools found is callable from the next step.
    expect(seen[1]).toContain('mod37_tool2');
    expect(second!.body.messages.at(-1).content).toMatch(/^Found \d+ tools? for "forecast topic742"/);
    expect(calls).toEqual(['mod37_tool2']);
    expect(third!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'forecast 742 for Lisbon' });
    const tools = session.messages().filter((m): m is ToolResultMessage => m.role === 'tool');
    expect(tools.map((t) => [t.toolName, t.result.status])).toEqual([
      ['FindTools', 'SUCCESS'],
      ['mod37_tool2', 'SUCCESS'],
    ]);
  });

  it('what FindTools found is saved with the chat: reopened, the found tool is still offered', async () => {
    const groups = manyGroups([]);
    const script: FakeScript = (_request, turn) => (turn === 0 ? fakeTurn.toolCall('FindTools', { query: 'forecast topic742' }) : fakeTurn.text('ok'));
    const { manager, server, home, settings } = await setup(script, groups, Object.fromEntries(groups.map((g) => [g.name, true])));
    const session = manager.create();
    recordEvents(session);
    await done(session.send('find the forecast tool'));
    expect(names(server.chatRequests()[1]!.body)).toContain('mod37_tool2');
    manager.closeAll();
    const again = new SessionManager({ home, settings, tools: staticTools(groups) });
    managers.push(again);
    const reopened = again.open(session.id);
    recordEvents(reopened);
    await done(reopened.send('and again'));
    // Still in budget mode, and the tool found before the reopen is offered in full.
    const offered = names(server.chatRequests().at(-1)!.body);
    expect(offered).toContain('FindTools');
    expect(offered).toContain('mod37_tool2');
  });

  it('pinned tools of the chat are always sent in full; under the budget everything goes and FindTools does not', async () => {
    const groups = manyGroups([]);
    const { manager, server, settings } = await setup([fakeTurn.text('a'), fakeTurn.text('b')], groups, Object.fromEntries(groups.map((g) => [g.name, true])));
    const session = manager.create();
    recordEvents(session);
    const all = groups.flatMap((g) => g.tools.map((t) => t.definition.function.name));
    session.setToolSelection({ tools: all, pinned: ['mod3_tool4'] });
    await done(session.send('hi'));
    expect(names(server.chatRequests()[0]!.body)).toEqual(['mod3_tool4', 'FindTools']);
    settings.update({ limits: { ...settings.get().limits, toolDefinitionBudgetChars: 10_000_000 } });
    await done(session.send('again'));
    const second = names(server.chatRequests()[1]!.body);
    expect(second).toHaveLength(1000);
    expect(second).not.toContain('FindTools');
  });
});

describe('per-chat tool selection', () => {
  it('hides unselected tools from the request, refuses a call to one with how to allow it, and is stored with the session', async () => {
    const { manager, server, home } = await setup([fakeTurn.toolCall('echo', { text: 'x' }), fakeTurn.text('ok')], [demoGroup()], { demo: true });
    const session = manager.create();
    recordEvents(session);
    expect(session.setToolSelection({ tools: ['slow', 'ReadVar', 'ListVars', 'ghost', 'slow'], pinned: ['echo'] })).toEqual({ tools: ['slow', 'ReadVar', 'ListVars', 'ghost'], pinned: [] });
    await done(session.send('echo x'));
    expect(names(server.chatRequests()[0]!.body)).toEqual(['ReadVar', 'ListVars', 'slow']);
    const refused = session.messages().find((m): m is ToolResultMessage => m.role === 'tool')!;
    expect(refused.result.status).toBe('ERROR');
    expect(refused.content).toMatch(/echo is not selected for this chat[\s\S]*"Tools" button in the message box/);

    // Reopened from disk, the chat keeps its choice; null goes back to the global switches.
    manager.closeAll();
    const again = new SessionManager({ home, settings: openSettingsStore(home), tools: staticTools([demoGroup()]) });
    managers.push(again);
    const reopened = again.open(session.id);
    expect(reopened.toolSelection()).toEqual({ tools: ['slow', 'ReadVar', 'ListVars', 'ghost'], pinned: [] });
    reopened.setToolSelection(null);
    expect(reopened.tools.definitions().map((d) => d.function.name)).toEqual(expect.arrayContaining(['echo', 'guarded', 'slow', 'big']));
  });
});

describe('tool calls the way users ask for them', () => {
  it('edited arguments: the tool gets them, the model is told, the session records both', async () => {
    const seenArgs: unknown[] = [];
    const group = demoGroup();
    const guarded = group.tools.find((t) => t.definition.function.name === 'guarded')!;
    const original = guarded.execute;
    guarded.execute = async (args, ctx) => {
      seenArgs.push(args);
      return original(args, ctx);
    };
    const { manager, server } = await setup([fakeTurn.toolCall('guarded', { what: 'model wish' }), fakeTurn.text('done')], [group], { demo: true });
    const session = manager.create();
    recordEvents(session, () => ({ decision: 'once', args: { what: 'user choice' } }));
    await done(session.send('go'));
    expect(seenArgs).toEqual([{ what: 'user choice' }]);
    const message = session.messages().find((m): m is ToolResultMessage => m.role === 'tool')!;
    expect(message.args).toEqual({ what: 'model wish' });
    expect(message.result.editedArgs).toEqual({ what: 'user choice' });
    expect(message.result.inspection?.resolvedArgs).toEqual({ what: 'user choice' });
    const told = server.chatRequests()[1]!.body.messages.at(-1).content as string;
    expect(told).toMatch(/^Note: the user changed the arguments before approving; the call ran with \{"what":"user choice"\}\.\n\nguarded ran user choice$/);
  });

  it('edited arguments that break the schema are refused by the runtime, with the validator message', async () => {
    const { manager } = await setup([fakeTurn.toolCall('guarded', { what: 'a' }), fakeTurn.text('done')], [demoGroup()], { demo: true });
    const session = manager.create();
    recordEvents(session, () => ({ decision: 'once', args: { what: 42 } }));
    await done(session.send('go'));
    const message = session.messages().find((m): m is ToolResultMessage => m.role === 'tool')!;
    expect(message.result.status).toBe('ERROR');
    expect(message.content).toMatch(/The arguments the user edited before approving are not valid: [\s\S]*what[\s\S]*string/);
    expect(session.checkToolArgs('guarded', { what: 42 })).toMatchObject({ ok: false, message: expect.stringMatching(/string/) });
    expect(session.checkToolArgs('guarded', { what: 'fine' })).toEqual({ ok: true });
    expect(session.checkToolArgs('nope', {})).toMatchObject({ ok: false });
  });

  it('run again: same or edited arguments, recorded under the first call, seen by the model next turn', async () => {
    const { manager, server } = await setup([fakeTurn.toolCall('echo', { text: 'one' }), fakeTurn.text('first'), fakeTurn.text('second')], [demoGroup()], { demo: true });
    const session = manager.create();
    const rec = recordEvents(session);
    await done(session.send('go'));
    const first = session.messages().find((m): m is ToolResultMessage => m.role === 'tool')!;
    expect((await session.rerunToolCall(first.callId)).finalText).toBe('echo: one');
    expect((await session.rerunToolCall(first.callId, { text: 'two' })).finalText).toBe('echo: two');
    const reruns = session.messages().filter((m): m is ToolResultMessage => m.role === 'tool' && m.rerunOf === first.callId);
    expect(reruns.map((m) => m.content)).toEqual(['echo: one', 'echo: two']);
    expect(rec.events.filter((e) => e.type === 'tool.started' && e.rerunOf === first.callId)).toHaveLength(2);
    expect(await session.rerunToolCall('call_missing')).toMatchObject({ status: 'NOT_FOUND' });
    await done(session.send('and now?'));
    const contents = server.chatRequests()[2]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
    expect(contents).toEqual(['echo: one', 'echo: one', 'echo: two']);
  });

  it('a call the user cancels is "cancelled" (not an error) and keeps its inspection timings', async () => {
    const { manager } = await setup([fakeTurn.toolCall('slow', { ms: 5000 }), fakeTurn.text('ok')], [demoGroup()], { demo: true });
    const session = manager.create();
    const rec = recordEvents(session);
    const sent = session.send('go');
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const started = rec.events.find((e) => e.type === 'tool.started');
        if (started && started.type === 'tool.started') {
          clearInterval(timer);
          setTimeout(() => {
            expect(session.cancelToolCall(started.callId)).toBe(true);
            resolve();
          }, 100);
        }
      }, 10);
    });
    await done(sent);
    const message = session.messages().find((m): m is ToolResultMessage => m.role === 'tool')!;
    expect(message.result).toMatchObject({ status: 'ERROR', cancelled: true });
    const timings = message.result.inspection!.timings;
    expect(timings.runningMs).toBeGreaterThanOrEqual(90);
    expect(timings.runningMs).toBeLessThan(3000);
    expect(timings.approvalMs).toBeLessThan(50);
  });

  it('$VAR_REF in the user message is expanded for the model, shown as typed; an unknown one is not sent', async () => {
    const { manager, server } = await setup([fakeTurn.toolCall('echo', { text: 'stored text' }), fakeTurn.text('ok'), fakeTurn.text('read it')], [demoGroup()], { demo: true });
    const session = manager.create();
    recordEvents(session);
    await done(session.send('store it'));
    const name = session.messages().find((m): m is ToolResultMessage => m.role === 'tool')!.result.cacheVarResult!;
    const requests = server.chatRequests().length;
    const unknown = await done(session.send('summarise $VAR_REF{{no_such_var}}'));
    expect(unknown.error?.message).toMatch(/The message was not sent: Unknown variable "no_such_var"/);
    expect(server.chatRequests()).toHaveLength(requests);
    await done(session.send(`summarise $VAR_REF{{${name}}} please`));
    const user = session.messages().filter((m): m is UserMessage => m.role === 'user').at(-1)!;
    expect(user).toMatchObject({ content: 'summarise echo: stored text please', typedContent: `summarise $VAR_REF{{${name}}} please`, varRefs: [{ name, chars: 17 }] });
    expect(server.chatRequests().at(-1)!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content).toBe('summarise echo: stored text please');
  });
});
