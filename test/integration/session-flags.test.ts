// Pinned and archived chats, and the count of the shown branch: kept in the session's records and
// summary, read back after a restart, listed by the CLI; files written before the flags still load.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionInfo, sessionPaths } from '../../electron/runtime/chat/persistence/session-file.ts';
import type { SessionManager } from '../../electron/runtime/chat/persistence/session-manager.ts';
import { makeManager, tmpHome } from '../support/chat-harness.ts';
import { runCli } from '../support/run-cli.ts';

const managers: SessionManager[] = [];
afterEach(() => {
  for (const m of managers.splice(0)) m.closeAll();
});

async function chatWith(manager: SessionManager, text: string) {
  const session = manager.create();
  await (session.send(`/echo {"text": "${text}"}`) as { done: Promise<unknown> }).done;
  return session;
}

describe('session flags', () => {
  it('pin and archive are stored, survive a restart, and do not count as activity', async () => {
    const home = tmpHome();
    const { manager } = makeManager(home);
    managers.push(manager);
    const a = await chatWith(manager, 'alpha');
    const before = a.info.updatedAt;
    await new Promise((r) => setTimeout(r, 5));
    expect(manager.setFlags(a.id, { pinned: true })).toMatchObject({ pinned: true });
    expect(manager.setFlags(a.id, { archived: true })).toMatchObject({ pinned: true, archived: true });
    expect(a.info.updatedAt).toBe(before);
    manager.setFlags(a.id, { pinned: false });
    expect(a.info).not.toHaveProperty('pinned');
    manager.closeAll();
    // From the summary, then rebuilt from the records alone.
    expect(readSessionInfo(manager.dir, a.id)).toMatchObject({ archived: true, updatedAt: before });
    writeFileSync(sessionPaths(manager.dir, a.id).meta, '{}');
    const again = makeManager(home).manager;
    managers.push(again);
    expect(again.list().find((s) => s.id === a.id)).toMatchObject({ archived: true });
    expect(again.open(a.id).info).toMatchObject({ archived: true });
    expect(again.open(a.id).info.pinned).toBeUndefined();
  });

  it('a session file written before flags loads, without them', async () => {
    const { manager } = makeManager(tmpHome());
    managers.push(manager);
    const s = await chatWith(manager, 'old');
    manager.closeAll();
    const log = sessionPaths(manager.dir, s.id).log;
    expect(readFileSync(log, 'utf8')).not.toContain('"flags"');
    writeFileSync(sessionPaths(manager.dir, s.id).meta, JSON.stringify({ version: 1, id: s.id, title: 'old summary', createdAt: 1, updatedAt: Date.now() + 10_000, messageCount: 2 }));
    // A summary without the new fields is read as it is (no flags, no shown count).
    expect(readSessionInfo(manager.dir, s.id)).toEqual({ id: s.id, title: 'old summary', createdAt: 1, updatedAt: expect.any(Number), messageCount: 2 });
    expect(manager.open(s.id).info.archived).toBeUndefined();
  });

  it('counts the messages of the shown branch only', async () => {
    const { manager } = makeManager(tmpHome());
    managers.push(manager);
    const s = await chatWith(manager, 'one');
    const user = s.messages()[0]!;
    // Editing the message by hand adds a second branch of user + tool message.
    await (s.edit(user.id, '/echo {"text": "two"}') as { done: Promise<unknown> }).done;
    expect(s.info.messageCount).toBe(4);
    expect(s.info.shownCount).toBe(2);
    manager.closeAll();
    expect(readSessionInfo(manager.dir, s.id)).toMatchObject({ messageCount: 4, shownCount: 2 });
  });
});

describe('tooldesk sessions list', () => {
  it('puts pinned chats first, hides archived ones unless --archived or --all', async () => {
    const home = tmpHome();
    const { manager } = makeManager(home);
    managers.push(manager);
    const pinned = await chatWith(manager, 'pinned one');
    const archived = await chatWith(manager, 'archived one');
    const plain = await chatWith(manager, 'plain one');
    manager.setFlags(pinned.id, { pinned: true });
    manager.setFlags(archived.id, { archived: true });
    manager.closeAll();
    const list = await runCli(home, ['sessions', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines.map((l) => l.slice(0, pinned.id.length))).toEqual([pinned.id, plain.id]);
    expect(lines[0]).toContain('[pinned]');
    const only = await runCli(home, ['sessions', 'list', '--archived', '--json']);
    expect(JSON.parse(only.stdout).map((s: { id: string }) => s.id)).toEqual([archived.id]);
    expect((await runCli(home, ['sessions', 'list', '--all'])).stdout).toContain('[archived]');
    const both = await runCli(home, ['sessions', 'list', '--all', '--archived']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('not both');
  }, 60_000);
});
