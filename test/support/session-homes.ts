// A home holding `count` saved chats (a question and an answer each), written as session files
// the way the app writes them: what `sessions list` reads in the startup benchmark and its test.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRecord } from '../../electron/runtime/chat/persistence/session-records.ts';

export function homeWithSessions(count: number, home = mkdtempSync(join(tmpdir(), 'td-sessions-'))): string {
  const dir = join(home, 'sessions');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const id = `s${String(i).padStart(4, '0')}-bench`;
    const at = 1_700_000_000_000 + i * 60_000;
    const records: SessionRecord[] = [
      { t: 'session', v: 1, id, createdAt: at, title: `Chat number ${i}` },
      { t: 'message', at: at + 1, message: { id: `u${i}`, createdAt: at + 1, role: 'user', content: `What is ${i} squared?` } },
      { t: 'message', at: at + 2, message: { id: `a${i}`, createdAt: at + 2, role: 'assistant', content: `${i * i}.`, stopReason: 'stop' } },
    ];
    writeFileSync(join(dir, `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  }
  return home;
}
