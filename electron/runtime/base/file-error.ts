// A file Tooldesk cannot read or write, said in one line: which file, what went wrong, what to do.
// Commands print the message alone (no stack): it is the user's to act on, not a bug.

export class FileError extends Error {
  override name = 'FileError';
  constructor(
    readonly file: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const WHAT_TO_DO: Record<string, string> = {
  ENOSPC: 'the disk is full; free some space and try again',
  EDQUOT: 'the disk quota is used up; free some space and try again',
  EROFS: 'the file system is read-only; set TOOLDESK_HOME to a writable folder',
  EACCES: 'permission denied; make the folder writable for this user or set TOOLDESK_HOME elsewhere',
  EPERM: 'the operation is not permitted; make the folder writable for this user or set TOOLDESK_HOME elsewhere',
  EISDIR: 'a folder is in the way; move it away',
  ENOTDIR: 'a part of the path is a file, not a folder; move it away',
  EMFILE: 'too many open files; close other programs and try again',
  EIO: 'the disk reported an input/output error; check the disk',
};

/** `Could not <doing> <file>: <what to do> (CODE).` for an fs error; other errors keep their message. */
export function fileError(doing: string, file: string, error: unknown, after = ''): FileError {
  if (error instanceof FileError) return error;
  const code = (error as NodeJS.ErrnoException)?.code;
  const advice = code ? WHAT_TO_DO[code] : undefined;
  const reason = advice ? `${advice} (${code})` : ((error as Error)?.message ?? String(error)).split('\n')[0];
  return new FileError(file, `Could not ${doing} ${file}: ${reason}.${after ? ` ${after}` : ''}`, code);
}
