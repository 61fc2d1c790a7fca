// Issue 21: no source file of the app grows past 450 lines; a file that does has more than one
// job, and the next change should split it rather than add to it. Issue 33: no runtime folder
// holds more than 25 files directly; a folder that does hides its concepts in file names.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MAX_LINES = 450;
const MAX_FILES_IN_FOLDER = 25;

describe('source file size', () => {
  it(`no .ts, .tsx or .mjs file in electron/, renderer/ or shared/ is over ${MAX_LINES} lines`, () => {
    const over: string[] = [];
    let seen = 0;
    for (const top of ['electron', 'renderer', 'shared']) {
      for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(ts|tsx|mjs)$/.test(entry.name)) continue;
        const path = join(entry.parentPath, entry.name);
        if (path.includes('/node_modules/')) continue;
        seen++;
        const lines = readFileSync(path, 'utf8').split('\n').length - 1;
        if (lines > MAX_LINES) over.push(`${relative(root, path)}: ${lines} lines`);
      }
    }
    expect(seen).toBeGreaterThan(300);
    expect(over).toEqual([]);
  });

  it(`no Python file under resources/ is over ${MAX_LINES} lines (the helpers the app runs: zygote, parsers, runners)`, () => {
    const over: string[] = [];
    let seen = 0;
    for (const entry of readdirSync(join(root, 'resources'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.py')) continue;
      const path = join(entry.parentPath, entry.name);
      seen++;
      const lines = readFileSync(path, 'utf8').split('\n').length - 1;
      if (lines > MAX_LINES) over.push(`${relative(root, path)}: ${lines} lines`);
    }
    expect(seen).toBeGreaterThan(5);
    expect(over).toEqual([]);
  });

  it(`no folder under electron/runtime or renderer/src holds more than ${MAX_FILES_IN_FOLDER} files directly`, () => {
    const crowded: string[] = [];
    let folders = 0;
    for (const top of ['electron/runtime', 'renderer/src']) {
      const dirs = [join(root, top), ...readdirSync(join(root, top), { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name))];
      for (const dir of dirs) {
        folders++;
        const files = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).length;
        if (files > MAX_FILES_IN_FOLDER) crowded.push(`${relative(root, dir)}: ${files} files`);
      }
    }
    expect(folders).toBeGreaterThan(20);
    expect(crowded).toEqual([]);
  });
});
