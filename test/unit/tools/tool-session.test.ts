import { describe, expect, it } from 'vitest';
import { Emitter } from '../../../electron/runtime/base/emitter.ts';
import type { GroupsChange } from '../../../electron/runtime/tools/executor-groups.ts';
import { toolSessionFactory, ToolSession, type ToolSessionDeps } from '../../../electron/runtime/tools/tool-session.ts';
import type { ToolGroup } from '../../../electron/runtime/tools/types.ts';
import { defaultSettings, type Settings } from '../../../shared/settings.ts';
import { makeGroup, makeTool } from './make-tool.ts';

function world(groups: ToolGroup[], switches: Partial<Settings> = {}) {
  let current: ToolGroup[] = groups;
  let settings: Settings = { ...defaultSettings(), ...switches };
  const toolsChanged = new Emitter<GroupsChange | undefined>();
  const settingsChanged = new Emitter<Settings>();
  const deps: ToolSessionDeps = {
    tools: { groups: () => current, onChanged: (listener) => toolsChanged.event(listener) },
    settings: () => settings,
    onSettingsChanged: (listener) => settingsChanged.event(listener),
  };
  return {
    deps,
    setGroups(next: ToolGroup[], change?: GroupsChange) {
      current = next;
      toolsChanged.fire(change);
    },
    setSettings(patch: Partial<Settings>) {
      settings = { ...settings, ...patch };
      settingsChanged.fire(settings);
    },
    listeners: () => toolsChanged.size + settingsChanged.size,
  };
}

const enabledNames = (session: ToolSession) => session.definitions().map((d) => d.function.name).sort();

describe('ToolSession', () => {
  it('layers the switches: settings, then onlyGroups, then the selection', () => {
    const w = world([makeGroup('a', [makeTool('a1'), makeTool('a2')]), makeGroup('b', [makeTool('b1')])], { groupDefaults: { a: true, b: true } });
    const all = new ToolSession(w.deps, { sessionId: 'all' });
    expect(enabledNames(all)).toEqual(['ListVars', 'ReadVar', 'a1', 'a2', 'b1']);
    const onlyB = new ToolSession(w.deps, { sessionId: 'only', onlyGroups: ['b'] });
    expect(enabledNames(onlyB)).toEqual(['ListVars', 'ReadVar', 'b1']);
    const chosen = new ToolSession(w.deps, { sessionId: 'chosen', selection: { tools: ['a2', 'a2', 'nope'], pinned: ['b1'] } });
    // A selection names every tool it offers (the built-ins too, as the Tools button lists them).
    expect(enabledNames(chosen)).toEqual(['a2']);
    // Normalised: duplicates go, pinned only among the chosen.
    expect(chosen.selection()).toEqual({ tools: ['a2', 'nope'], pinned: [] });

    // A settings change re-applies every layer: onlyGroups and the selection stay on top.
    w.setSettings({ groupDefaults: { a: true, b: true }, toolDefaults: { b1: false } });
    expect(enabledNames(onlyB)).toEqual(['ListVars', 'ReadVar']);
    expect(enabledNames(chosen)).toEqual(['a2']);
    w.setSettings({ groupDefaults: { b: true }, toolDefaults: {} });
    expect(enabledNames(onlyB)).toEqual(['ListVars', 'ReadVar', 'b1']);
    for (const s of [all, onlyB, chosen]) s.close();
  });

  it('execute refuses a tool the selection leaves out, with a message for the model, and runs chosen ones', async () => {
    const w = world([makeGroup('a', [makeTool('a1', async () => ({ data: 'one' })), makeTool('a2')])], { groupDefaults: { a: true } });
    const session = new ToolSession(w.deps, { sessionId: 's', selection: { tools: ['a1'], pinned: [] } });
    const ran = await session.execute('a1', {}, { callId: 'c1' });
    expect(ran).toMatchObject({ status: 'SUCCESS', finalText: 'one', callId: 'c1' });
    const refused = await session.execute('a2', {}, { callId: 'c2' });
    expect(refused).toMatchObject({ status: 'ERROR', callId: 'c2', finalText: expect.stringMatching(/a2 is not selected for this chat.*"Tools" button/) });
    // Clearing the selection follows the global switches again.
    session.setSelection(null);
    expect((await session.execute('a2', {})).status).toBe('SUCCESS');
    // An unknown name is the executor's NOT_FOUND, not a selection refusal.
    expect((await session.execute('zzz', {})).status).toBe('NOT_FOUND');
    session.close();
  });

  it('follows tool reloads, tells its listeners, and stops following when closed', () => {
    const w = world([makeGroup('a', [makeTool('a1')])], { groupDefaults: { a: true, b: true } });
    const session = new ToolSession(w.deps, { sessionId: 's' });
    let changes = 0;
    session.onChanged(() => changes++);
    session.onChanged(() => {
      throw new Error('a broken listener');
    });
    w.setGroups([makeGroup('a', [makeTool('a1')]), makeGroup('b', [makeTool('b1')])], { added: ['b'], removed: [], updated: [] });
    expect(enabledNames(session)).toEqual(['ListVars', 'ReadVar', 'a1', 'b1']);
    w.setGroups([makeGroup('b', [makeTool('b2')])]);
    expect(enabledNames(session)).toEqual(['ListVars', 'ReadVar', 'b2']);
    expect(session.groupOf('b2')).toBe('b');
    expect(session.groupOf('nothing')).toBe('');
    expect(changes).toBe(2);
    session.close();
    session.close();
    expect(w.listeners()).toBe(0);
    w.setGroups([makeGroup('c', [makeTool('c1')])]);
    expect(enabledNames(session)).toEqual(['ListVars', 'ReadVar', 'b2']);
    expect(changes).toBe(2);
  });

  it('close rejects an approval that is waiting and aborts the running tool', async () => {
    const w = world([makeGroup('a', [makeTool('ask', async () => ({ data: 'ran' }), { permission: { executionPolicy: 'ask-always' } })])], { groupDefaults: { a: true } });
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const session = new ToolSession(w.deps, {
      sessionId: 's',
      approve: (_request, signal) =>
        new Promise((resolve) => {
          asked();
          signal.addEventListener('abort', () => resolve({ decision: 'reject', reason: 'closed while asking' }));
        }),
    });
    const result = session.execute('ask', {});
    await askedOnce;
    session.close();
    expect(await result).toMatchObject({ status: 'EXECUTION_REJECTED', rejectReason: expect.stringMatching(/Aborted|closed/) });
  });

  it('the factory reports each closed session once', () => {
    const w = world([]);
    const closed: string[] = [];
    const open = toolSessionFactory({ ...w.deps, closed: (s) => closed.push(s.sessionId) });
    const one = open({ sessionId: 'one' });
    const two = open({ sessionId: 'two' });
    one.close();
    one.close();
    two.close();
    expect(closed).toEqual(['one', 'two']);
    expect(one.closed && two.closed).toBe(true);
  });
});
