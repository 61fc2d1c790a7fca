// `__files__` of one call: the chat's attached files copied into a fresh folder under the system
// temp folder, which the sandbox hides (its /tmp is private) except for this folder, bound
// read-only; the session's own files folder stays hidden. Removed when the call ends.
import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConversationFile } from '../../tools/types.ts';

/** One entry of `__files__`, in the shape Open WebUI passes (its docs: "Special Arguments"). */
export interface OpenWebUiFile {
  type: 'file';
  id: string;
  name: string;
  url: string;
  size: number;
  status: 'uploaded';
  /** Where the copy is, inside and outside the sandbox alike (also at `file.path`). */
  path: string;
  content_type: string;
  file: { id: string; filename: string; path: string; meta: { name: string; content_type: string; size: number } };
}

export interface CallFiles {
  /** The folder to bind read-only into the sandbox. */
  dir: string;
  files: OpenWebUiFile[];
  /** Files that could not be copied, named for the call's warnings. */
  missing: string[];
  remove(): Promise<void>;
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '').slice(0, 80) || 'file';

/** Copies `files` for one call; undefined when there are none. Contract: never throws. */
export async function stageCallFiles(files: ConversationFile[] | undefined): Promise<CallFiles | undefined> {
  if (!files?.length) return undefined;
  let dir: string;
  try {
    dir = await mkdtemp(join(tmpdir(), 'tooldesk-files-'));
  } catch {
    return { dir: '', files: [], missing: files.map((f) => f.name), remove: async () => {} };
  }
  const staged: OpenWebUiFile[] = [];
  const missing: string[] = [];
  for (const [index, file] of files.entries()) {
    // A numbered prefix keeps two attachments of the same name apart.
    const path = join(dir, `${index + 1}-${safeName(file.name)}`);
    try {
      await copyFile(file.path, path);
    } catch {
      missing.push(file.name);
      continue;
    }
    const id = randomUUID();
    const meta = { name: file.name, content_type: file.mediaType, size: file.size };
    staged.push({ type: 'file', id, name: file.name, url: pathToFileURL(path).href, size: file.size, status: 'uploaded', path, content_type: file.mediaType, file: { id, filename: file.name, path, meta } });
  }
  return { dir, files: staged, missing, remove: () => rm(dir, { recursive: true, force: true }).catch(() => {}) };
}
