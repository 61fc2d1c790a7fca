// Reads a tool's text file defensively: only regular files (a FIFO or device named tool.json
// would block a plain read forever) and only up to a size no real tool file reaches (a setting:
// a 1 GiB module handed to a parser cost 2.1 GB).
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../../../../shared/settings.ts';

/** What a tool source may be unless settings say otherwise (limits.toolSourceMaxBytes). */
export const DEFAULT_TOOL_SOURCE_MAX_BYTES = DEFAULT_LIMITS.toolSourceMaxBytes;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Why a file of `size` bytes is not read: its size, the limit and the setting that raises it. */
export function tooLargeReason(size: number, maxBytes: number): string {
  return `${megabytes(size)}, more than the ${megabytes(maxBytes)} a tool source may be (settings: limits.toolSourceMaxBytes), so it was not read`;
}

/** The hint of a too-large diagnostic: the two ways out. */
export const TOO_LARGE_HINT = 'A tool source is a few KB: move data files out of the tools folder, or raise the limit, e.g. `tooldesk config set limits.toolSourceMaxBytes 20971520` (20 MB).';

/** A tool file over the size limit: its message is tooLargeReason's, its hint TOO_LARGE_HINT. */
export class ToolSourceTooLargeError extends Error {
  readonly hint = TOO_LARGE_HINT;
}

/** Why `path` cannot be read as a tool file and what to do, or null when it can. */
export function unreadableReason(path: string, maxBytes = DEFAULT_TOOL_SOURCE_MAX_BYTES): { reason: string; hint: string } | null {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    return { reason: (error as Error).message, hint: 'Make it a regular, readable source file.' };
  }
  if (!stat.isFile()) return { reason: 'not a regular file', hint: 'Make it a regular, readable source file.' };
  if (stat.size > maxBytes) return { reason: tooLargeReason(stat.size, maxBytes), hint: TOO_LARGE_HINT };
  return null;
}

/**
 * A tool file's text. Read synchronously (see readTextFileSync): discovery reads three files per
 * three-layer folder, and an awaited open, fstat, read and close each cost more than the reading.
 */
export async function readTextFile(path: string, maxBytes = DEFAULT_TOOL_SOURCE_MAX_BYTES): Promise<string> {
  return readTextFileSync(path, maxBytes);
}

/**
 * readTextFile without the thread pool, for the many small files read at every start (module
 * caches): one await per stat and read cost more than the reading on a busy machine. Opened
 * without blocking and checked on the open file, so a FIFO swapped in never hangs the process.
 */
export function readTextFileSync(path: string, maxBytes = DEFAULT_TOOL_SOURCE_MAX_BYTES): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > maxBytes) throw new ToolSourceTooLargeError(tooLargeReason(stat.size, maxBytes));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
