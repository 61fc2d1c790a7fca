// A turn cut off by a restart: the session file is copied at the moment of the cut (what a kill
// leaves on disk), opened by a fresh SessionManager in another home, and continued from there.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent, ChatMessage } from '../../../../shared/chat.ts';
import type { ApprovalDecision } from '../../../../shared/tools.ts';
import type { ChatSession } from '../../../../electron/runtime/chat/chat-session.ts';
import type { SessionManager } from '../../../../electron/runtime/chat/persistence/session-manager.ts';
import { callsWithoutResult, interruptionOf } from '../../../../electron/runtime/chat/turn/turn-interruption.ts';
import { appPaths } from '../../../../electron/runtime/paths.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../../support/fake-openai-server.ts';
import { demoGroup, fakeProviderSettings, makeManager, recordEvents, staticTools, tmpHome, type DemoLog } from '../../../support/chat-harness.ts';

let server: FakeOpenAIServer | undefined;
const managers: SessionManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) m.closeAll();
  await server?.close();
  server = undefined;
});

function managerIn(home: string, url: string, log: DemoLog): SessionManager {
  const { settings, manager } = makeManager(home, { tools: staticTools([demoGroup(log)]) });
  fakeProviderSettings(settings, url);
  settings.update({ groupDefaults: { demo: true } });
  managers.push(manager);
  return manager;
}

async function setup(turns: FakeTurn[]) {
  server = await startFakeOpenAI({ turns });
  const log: DemoLog = { running: 0, maxConcurrent: 0, calls: [] };
  const home = tmpHome();
  return { home, log, manager: managerIn(home, server.url, log) };
}

const logOf = (home: string, id: string) => join(appPaths(home).sessionsDir, `${id}.jsonl`);

/** Sends `text` and, at the first event `cut` matches, copies the session file to a new home: what a kill at that moment leaves. */
function sendAndCut(home: string, session: ChatSession, text: string, cut: (event: ChatEvent) => boolean): Promise<string> {
  const restarted = tmpHome();
  mkdirSync(appPaths(restarted).sessionsDir, { recursive: true });
  return new Promise((resolve) => {
    const dispose = session.onEvent((event) => {
      if (!cut(event)) return;
      dispose();
      copyFileSync(logOf(home, session.id), logOf(restarted, session.id));
      resolve(restarted);
    });
    expect(session.send(text).ok).toBe(true);
  });
}

/** A new home holding a copy of the cut file. */
function copyOf(cutHome: string, id: string): string {
  const home = tmpHome();
  mkdirSync(appPaths(home).sessionsDir, { recursive: true });
  copyFileSync(logOf(cutHome, id), logOf(home, id));
  return home;
}

/** Opens the cut file as a restarted app would: a new manager over a copy of it (each call its own copy). */
function reopen(cutHome: string, id: string, log: DemoLog): ChatSession {
  return managerIn(copyOf(cutHome, id), server!.url, log).open(id);
}

async function finished(started: ReturnType<ChatSession['continueTurn']>) {
  if (!started.ok) throw new Error(started.error.message);
  return started.done;
}

const roles = (messages: ChatMessage[]) => messages.map((m) => m.role);

/** Answers every approval of `session` with `decision`; returns the notes the cards carried. */
function answerNoting(session: ChatSession, decision: ApprovalDecision): string[] {
  const notes: string[] = [];
  recordEvents(session, (request) => {
    notes.push((request as { note?: string }).note ?? '');
    return decision;
  });
  return notes;
}

describe('a turn cut off by a restart', () => {
  it('cut while the model was answering: Interrupted; Continue and Retry both get an answer', async () => {
    const { home, manager, log } = await setup([fakeTurn.text('a long answer that streams slowly', { deltaChars: 2, delayMs: 40 }), fakeTurn.text('continued answer'), fakeTurn.text('retried answer')]);
    const session = manager.create();
    const cut = await sendAndCut(home, session, 'hello', (event) => event.type === 'session.delta');
    manager.closeAll();

    const continued = reopen(cut, session.id, log);
    const userId = continued.messages()[0]!.id;
    expect(continued.interruption()).toMatchObject({ during: 'answer', calls: [], retryFrom: userId });
    expect(roles(continued.messages())).toEqual(['user']);
    recordEvents(continued);
    expect((await finished(continued.continueTurn())).stopReason).toBe('stop');
    expect(continued.interruption()).toBeUndefined();
    expect(continued.messages().at(-1)).toMatchObject({ role: 'assistant', content: 'continued answer' });

    const retried = reopen(cut, session.id, log);
    recordEvents(retried);
    expect((await finished(retried.regenerate(userId))).stopReason).toBe('stop');
    expect(retried.interruption()).toBeUndefined();
    expect(retried.messages().map((m) => m.role === 'assistant' && m.content)).toEqual([false, 'retried answer']);
  });

  it('cut while a call waited for approval: Continue asks it again; approved, it runs and the turn ends', async () => {
    const { home, manager, log } = await setup([fakeTurn.toolCall('guarded', { what: 'x' }), fakeTurn.text('guarded done')]);
    const session = manager.create();
    const cut = await sendAndCut(home, session, 'run guarded', (event) => event.type === 'approval.requested');
    manager.closeAll();

    const reopened = reopen(cut, session.id, log);
    expect(reopened.interruption()).toMatchObject({ during: 'approval', calls: [{ toolName: 'guarded', waiting: true }] });
    expect(roles(reopened.messages())).toEqual(['user', 'assistant']);
    const asked = answerNoting(reopened, { decision: 'once' });
    expect((await finished(reopened.continueTurn())).stopReason).toBe('stop');
    expect(asked).toEqual(['Asked again: Tooldesk stopped while this call waited for your answer.']);
    expect(log.calls).toEqual(['guarded']);
    expect(reopened.messages().map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(reopened.messages().at(-1)).toMatchObject({ content: 'guarded done' });
  });

  it('cut while a tool ran: it is not re-run silently (asked again though its policy is auto); rejected, the model goes on', async () => {
    const { home, manager, log } = await setup([fakeTurn.toolCall('slow', { ms: 5000 }), fakeTurn.text('understood, not run')]);
    const session = manager.create();
    const cut = await sendAndCut(home, session, 'run slow', (event) => event.type === 'tool.progress');
    manager.closeAll();
    expect(log.calls).toEqual(['slow']);

    const reopened = reopen(cut, session.id, log);
    expect(reopened.interruption()).toMatchObject({ during: 'tool', calls: [{ toolName: 'slow', waiting: false }] });
    const asked = answerNoting(reopened, { decision: 'reject' });
    expect((await finished(reopened.continueTurn())).stopReason).toBe('stop');
    expect(asked).toEqual([expect.stringMatching(/running, so it may have done part of its work/)]);
    expect(log.calls).toEqual(['slow']);
    const tool = reopened.messages().find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ toolName: 'slow', result: { status: 'EXECUTION_REJECTED' } });
    expect(reopened.messages().at(-1)).toMatchObject({ content: 'understood, not run' });
  });

  it('a /tool run by hand and cut off: Continue asks before running it again, never sends it to the model', async () => {
    const { home, manager, log } = await setup([]);
    const session = manager.create();
    const cutRunning = await sendAndCut(home, session, '/slow {"ms": 5000}', (event) => event.type === 'tool.progress');
    manager.closeAll();
    const running = reopen(cutRunning, session.id, log);
    expect(running.interruption()).toMatchObject({ during: 'tool', calls: [{ toolName: 'slow', waiting: false }] });
    const notes = answerNoting(running, { decision: 'reject' });
    expect(await finished(running.continueTurn())).toMatchObject({ stopReason: 'error', error: { name: 'EXECUTION_REJECTED' } });
    expect(notes).toEqual([expect.stringMatching(/may have done part of its work/)]);
    expect(log.calls).toEqual(['slow']);
    expect(roles(running.messages())).toEqual(['user', 'tool']);

    const secondHome = tmpHome();
    const secondManager = managerIn(secondHome, server!.url, log);
    const other = secondManager.create();
    const cutWaiting = await sendAndCut(secondHome, other, '/guarded {"what": "by hand"}', (event) => event.type === 'approval.requested');
    secondManager.closeAll();
    const waiting = reopen(cutWaiting, other.id, log);
    expect(waiting.interruption()).toMatchObject({ during: 'approval', calls: [{ toolName: 'guarded', waiting: true }] });
    recordEvents(waiting, () => ({ decision: 'once' }));
    expect((await finished(waiting.continueTurn())).stopReason).toBe('stop');
    expect(log.calls).toEqual(['slow', 'guarded']);
    expect(waiting.messages().at(-1)).toMatchObject({ role: 'tool', content: 'guarded ran by hand' });
    expect(server!.chatRequests()).toHaveLength(0);
  });

  it('quitting the app mid-turn (close) records the question as dropped and nothing after: reopened, it is Interrupted', async () => {
    const { home, manager, log } = await setup([fakeTurn.toolCall('guarded', { what: 'y' })]);
    const session = manager.create();
    const waiting = new Promise<void>((resolve) => session.onEvent((event) => event.type === 'approval.requested' && resolve()));
    expect(session.send('go').ok).toBe(true);
    await waiting;
    const before = readFileSync(logOf(home, session.id), 'utf8');
    manager.closeAll();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const added = readFileSync(logOf(home, session.id), 'utf8').slice(before.length).trim().split('\n').map((line) => JSON.parse(line));
    expect(added).toEqual([expect.objectContaining({ t: 'approval', decision: null })]);
    const reopened = managerIn(home, server!.url, log).open(session.id);
    expect(reopened.interruption()).toMatchObject({ during: 'approval', calls: [{ toolName: 'guarded', waiting: true }] });
  });

  it('deleting a message of an interrupted session ends the interruption, also after the next restart', async () => {
    const { home, manager, log } = await setup([fakeTurn.toolCall('guarded', { what: 'z' })]);
    const session = manager.create();
    const cut = await sendAndCut(home, session, 'go', (event) => event.type === 'approval.requested');
    manager.closeAll();
    const home2 = copyOf(cut, session.id);
    const reopened = managerIn(home2, server!.url, log).open(session.id);
    expect(reopened.interruption()).toBeDefined();
    expect(reopened.deleteMessage(reopened.messages().at(-1)!.id)).toBe(true);
    expect(reopened.interruption()).toBeUndefined();
    expect(reopened.continueTurn()).toMatchObject({ ok: false, error: { name: 'NotInterrupted' } });
    const later = managerIn(home2, server!.url, log).open(session.id);
    expect(later.interruption()).toBeUndefined();
  });

  it('a finished turn, or a file whose last turn has no start record (older files): nothing to continue', async () => {
    const { home, manager, log } = await setup([fakeTurn.text('done')]);
    const session = manager.create();
    const sent = session.send('hi');
    recordEvents(session);
    await (sent as { done: Promise<unknown> }).done;
    manager.closeAll();
    const again = managerIn(home, server!.url, log).open(session.id);
    expect(again.interruption()).toBeUndefined();
    expect(again.continueTurn()).toMatchObject({ ok: false, error: { name: 'NotInterrupted' } });

    // A file from before turn records opens as it always did.
    const legacy = tmpHome();
    mkdirSync(appPaths(legacy).sessionsDir, { recursive: true });
    copyFileSync(new URL('../../../fixtures/sessions/legacy-v1.jsonl', import.meta.url), logOf(legacy, 'legacy-1'));
    expect(managerIn(legacy, server!.url, log).open('legacy-1').interruption()).toBeUndefined();

    const user: ChatMessage = { id: 'u1', role: 'user', content: 'q', createdAt: 1 };
    const asking: ChatMessage = { id: 'a1', role: 'assistant', content: '', createdAt: 2, toolCalls: [{ id: 'c1', name: 'echo', args: {} }, { id: 'c2', name: 'echo', args: {} }] };
    const result = { id: 't1', role: 'tool', callId: 'c1', toolName: 'echo', content: '', createdAt: 3, result: { status: 'SUCCESS', finalText: '' } } as ChatMessage;
    expect(interruptionOf({ unansweredAsks: new Map() }, [user, asking])).toBeUndefined();
    expect(callsWithoutResult([user, asking, result]).map((c) => c.id)).toEqual(['c2']);
    expect(callsWithoutResult([user])).toEqual([]);
    expect(interruptionOf({ openTurn: { turnId: 't', at: 1 }, unansweredAsks: new Map([['r', 'c2']]) }, [user, asking, result])).toEqual({
      turnId: 't',
      during: 'approval',
      calls: [{ callId: 'c2', toolName: 'echo', waiting: true }],
      retryFrom: 'u1',
    });
    // Its result waited for approval: the call ran, and the result it showed is kept to show again.
    const shown = { status: 'SUCCESS' as const, text: 'the result' };
    expect(interruptionOf({ openTurn: { turnId: 't', at: 1 }, unansweredAsks: new Map([['r', 'c2']]), unansweredResults: new Map([['c2', shown]]) }, [user, asking, result])?.calls).toEqual([
      { callId: 'c2', toolName: 'echo', waiting: true, result: shown },
    ]);
  });
});
