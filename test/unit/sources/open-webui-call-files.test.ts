import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stageCallFiles } from '../../../electron/runtime/sources/open-webui/call-files.ts';

describe('stageCallFiles', () => {
  it('copies each file under its own name into one fresh folder, names what is gone, and removes the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-files-'));
    writeFileSync(join(dir, 'm1-0-notes.txt.txt'), 'one');
    writeFileSync(join(dir, 'm2-0-notes.txt.txt'), 'two');
    const staged = (await stageCallFiles([
      { name: 'notes.txt', path: join(dir, 'm1-0-notes.txt.txt'), mediaType: 'text/plain', size: 3 },
      { name: 'notes.txt', path: join(dir, 'm2-0-notes.txt.txt'), mediaType: 'text/plain', size: 3 },
      { name: '../../etc/passwd', path: join(dir, 'gone.txt'), mediaType: 'text/plain', size: 1 },
    ]))!;
    expect(staged.files.map((f) => readFileSync(f.path, 'utf8'))).toEqual(['one', 'two']);
    expect(staged.files.every((f) => f.path.startsWith(`${staged.dir}/`) && f.file.path === f.path && f.type === 'file')).toBe(true);
    expect(staged.missing).toEqual(['../../etc/passwd']);
    await staged.remove();
    expect(existsSync(staged.dir)).toBe(false);
    expect(await stageCallFiles([])).toBeUndefined();
  });
});
