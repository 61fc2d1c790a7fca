// A session log made huge quickly, for tests and benches of bounded memory: the fixture's real
// records, a side branch of 1 MB tool results (read in full by a scan, never shown), a hole of
// NUL bytes (sparse, so free to write: one over-long line to a reader), then one shown message.
import { appendFileSync, closeSync, copyFileSync, ftruncateSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const HUGE_SESSION_ID = 'mwub5amm-291a60';
/** The fixture's last shown message: the side branch hangs under it and the head comes back to it. */
const LAST_FIXTURE_MESSAGE = 'msg-4534fdd32653';
export const AFTER_THE_HOLE = 'Still here after the hole';

export interface HugeSessionLayout {
  /** Bytes of real records on the side branch (1 MB each). */
  branchBytes: number;
  /** Bytes of the NUL line. */
  holeBytes: number;
}

/** Writes `<home>/sessions/<HUGE_SESSION_ID>.jsonl`; returns its path. */
export function writeHugeSession(home: string, layout: HugeSessionLayout): string {
  mkdirSync(join(home, 'sessions'), { recursive: true });
  const file = join(home, 'sessions', `${HUGE_SESSION_ID}.jsonl`);
  copyFileSync(new URL('../fixtures/sessions/legacy-v1.jsonl', import.meta.url), file);
  const content = 'x'.repeat(1024 * 1024);
  const fd = openSync(file, 'a');
  try {
    let parent = LAST_FIXTURE_MESSAGE;
    for (let i = 0; i * 1024 * 1024 < layout.branchBytes; i++) {
      const id = `msg-branch-${i}`;
      const message = { id, parentId: parent, role: 'tool', createdAt: 1795501354000 + i, callId: `c${i}`, toolName: 'big', args: {}, content, result: { toolName: 'big', status: 'OK', finalText: 'big' } };
      writeSync(fd, `${JSON.stringify({ t: 'message', at: 1795501354000 + i, message })}\n`);
      parent = id;
    }
    writeSync(fd, `${JSON.stringify({ t: 'head', at: 1795501355000, id: LAST_FIXTURE_MESSAGE })}\n`);
  } finally {
    closeSync(fd);
  }
  const holeFd = openSync(file, 'r+');
  ftruncateSync(holeFd, statSync(file).size + layout.holeBytes);
  closeSync(holeFd);
  const last = { id: 'msg-after-hole', parentId: LAST_FIXTURE_MESSAGE, role: 'user', content: AFTER_THE_HOLE, createdAt: 1795501356000 };
  appendFileSync(file, `\n${JSON.stringify({ t: 'message', at: 1795501356000, message: last })}\n`);
  return file;
}
