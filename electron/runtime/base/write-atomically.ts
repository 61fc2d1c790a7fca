// The whole text or nothing: a crash or a full disk mid-write leaves the old file in place (a
// temporary file beside it, synced, then renamed over it). Throws what the disk said.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

export function writeAtomically(path: string, text: string, mode = 0o666): void {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fd = openSync(temp, 'w', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
