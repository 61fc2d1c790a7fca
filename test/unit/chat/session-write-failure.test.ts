// A session file that cannot be written (a full disk, injected into appendFileSync): the turn ends
// with one line naming the file and what to do, not a stack trace, and everything the session
// held before stays readable (the half-written record is cut back).
import * as realFs from 'node:fs';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionManager } from '../../../electron/runtime/chat/persistence/session-manager.ts';
import { openSettingsStore } from '../../../electron/runtime/store/settings-store.ts';
import { demoGroup, tmpHome } from '../../support/chat-harness.ts';

const disk = vi.hoisted(() => ({ full: false }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const appendFileSync: typeof fs.appendFileSync = (file, data, options) => {
    if (!disk.full) return fs.appendFileSync(file, data, options);
    // What a full disk does mid-write: part of the record lands, then ENOSPC.
    fs.appendFileSync(file, String(data).slice(0, 7), options);
    throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
  };
  return { ...fs, default: { ...fs, appendFileSync }, appendFileSync };
});

afterEach(() => {
  disk.full = false;
});

describe('a session file on a full disk', () => {
  it('ends the turn with one line naming the file and keeps every record before it', async () => {
    const home = tmpHome();
    const settings = openSettingsStore(home);
    settings.set('groupDefaults', { demo: true });
    const group = demoGroup();
    const manager = new SessionManager({ home, settings, tools: { groups: () => [group] } });
    const session = manager.create({ title: 'disk' });
    const first = session.send('/echo {"text":"kept"}');
    if (!first.ok) throw new Error(first.error.message);
    expect((await first.done).stopReason).toBe('stop');
    const log = `${manager.dir}/${session.id}.jsonl`;
    const before = readFileSync(log, 'utf8');

    disk.full = true;
    const second = session.send('/echo {"text":"lost"}');
    if (!second.ok) throw new Error(second.error.message);
    const outcome = await second.done;
    expect(outcome.stopReason).toBe('error');
    expect(outcome.error).toEqual({
      name: 'FileError',
      message: `Could not save the session to ${log}: the disk is full; free some space and try again (ENOSPC). What the session held before is kept; this turn stopped here.`,
    });
    // The half-written record was cut back: the file is exactly what it was.
    expect(readFileSync(log, 'utf8')).toBe(before);
    manager.closeAll();

    // Space freed: the session opens whole, with no torn-line warning, and takes new turns.
    disk.full = false;
    const again = new SessionManager({ home, settings, tools: { groups: () => [group] } });
    const reopened = again.open(session.id);
    expect(again.warnings.get(session.id)).toBeUndefined();
    expect(reopened.messages().map((m) => m.content)).toEqual(['/echo {"text":"kept"}', 'echo: kept']);
    const third = reopened.send('/echo {"text":"later"}');
    if (!third.ok) throw new Error(third.error.message);
    expect((await third.done).stopReason).toBe('stop');
    for (const line of realFs.readFileSync(log, 'utf8').trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    again.closeAll();
    settings.close();
  });

  it('a new session on a full disk fails in one line too', () => {
    const home = tmpHome();
    const settings = openSettingsStore(home);
    const manager = new SessionManager({ home, settings });
    disk.full = true;
    expect(() => manager.create()).toThrow(/^Could not save the session to .*\.jsonl: the disk is full; free some space and try again \(ENOSPC\)\./);
    settings.close();
  });
});
