// Writes a file so readers (and the watcher) never see it half-written: temp file + rename.
import { randomBytes } from 'node:crypto';
import { rm, writeFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, content: string): Promise<void> {
  // Hidden temp name: discovery skips dot files, so a crash leaves nothing that loads as a tool.
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
