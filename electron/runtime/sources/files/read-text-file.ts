// Reads a tool's text file defensively: only regular files (a FIFO or device named tool.json
// would block a plain read forever) and only up to a size no real tool file reaches.
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';

export const MAX_TOOL_FILE_BYTES = 8 * 1024 * 1024;

/** Why `path` cannot be read as a tool file, or null when it can. */
export function unreadableReason(path: string, maxBytes = MAX_TOOL_FILE_BYTES): string | null {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    return (error as Error).message;
  }
  if (!stat.isFile()) return 'not a regular file';
  if (stat.size > maxBytes) return `larger than ${Math.round(maxBytes / 1024 / 1024)} MB`;
  return null;
}

/**
 * A tool file's text. Read synchronously (see readTextFileSync): discovery reads three files per
 * three-layer folder, and an awaited open, fstat, read and close each cost more than the reading.
 */
export async function readTextFile(path: string, maxBytes = MAX_TOOL_FILE_BYTES): Promise<string> {
  return readTextFileSync(path, maxBytes);
}

/**
 * readTextFile without the thread pool, for the many small files read at every start (module
 * caches): one await per stat and read cost more than the reading on a busy machine. Opened
 * without blocking and checked on the open file, so a FIFO swapped in never hangs the process.
 */
export function readTextFileSync(path: string, maxBytes = MAX_TOOL_FILE_BYTES): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > maxBytes) throw new Error(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
