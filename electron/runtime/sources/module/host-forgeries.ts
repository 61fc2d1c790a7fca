// What a tool host said that no request of the app asked for: a message for an id that is not
// waiting, or of another kind than the request's, or one the protocol does not have (a
// "cache-put"). Such a line was printed by a module (anything a module writes to fd 1 reaches
// the app), so it is ignored and charged to the modules whose requests were open when it came:
// each gets a diagnostic naming it. Pure bookkeeping, no I/O.
import type { Diagnostic } from '../../../../shared/tools.ts';

/** At most this many forgeries are described per module (the rest are counted). */
const MAX_DESCRIBED = 3;

export class HostForgeries {
  private readonly byFile = new Map<string, { described: string[]; count: number }>();

  /** `what` was forged while requests of `files` were open (the oldest first: it runs now). */
  charge(files: string[], what: string): void {
    for (const file of new Set(files)) {
      const entry = this.byFile.get(file) ?? { described: [], count: 0 };
      entry.count++;
      if (entry.described.length < MAX_DESCRIBED && !entry.described.includes(what)) entry.described.push(what);
      this.byFile.set(file, entry);
    }
  }

  /** The diagnostic for `file` (and forgets it), or undefined when it forged nothing. */
  take(file: string): Diagnostic | undefined {
    const entry = this.byFile.get(file);
    if (!entry) return undefined;
    this.byFile.delete(file);
    const more = entry.count > entry.described.length ? ` (${entry.count} in all)` : '';
    return {
      severity: 'error',
      file,
      message: `While this module ran, its tool host sent messages no request of the app asked for: ${entry.described.join('; ')}${more}. They were ignored.`,
      hint: 'A module must not write protocol lines to the tool host\'s stdout (fd 1) itself; use console.log, which the host forwards as the call\'s output.',
      code: 'module-host-forged',
    };
  }
}

/** A short description of a forged message, safe to show (bounded, no code). */
export function describeForged(message: { t?: unknown; id?: unknown }, why: string): string {
  const type = typeof message.t === 'string' ? message.t.slice(0, 40) : 'unknown';
  const id = typeof message.id === 'number' ? ` for request ${message.id}` : '';
  return `a forged "${type}"${id} (${why})`;
}
