import { describe, expect, it } from 'vitest';
import { toolFolderRows } from '../../../renderer/src/settings/tool-folder-rows.ts';

describe('toolFolderRows', () => {
  it("shows one row for Agenvoy's home and project folder when the working folder is the home", () => {
    const rows = toolFolderRows({
      agenvoyHome: '/home/u/.config/agenvoy/tools/script',
      agenvoyProject: '/home/u/.config/agenvoy/tools/script',
      ompHome: '/home/u/.omp/agent/tools',
      ompProject: '/home/u/.omp/tools',
    });
    expect(rows.map((r) => [r.keys, r.path])).toEqual([
      [['agenvoyHome', 'agenvoyProject'], '/home/u/.config/agenvoy/tools/script'],
      [['ompHome'], '/home/u/.omp/agent/tools'],
      [['ompProject'], '/home/u/.omp/tools'],
    ]);
    expect(rows[0]!.note).toBe('also the folder of Agenvoy project tools, since the working folder is your home');
  });

  it('shows each kind with its own path for another working folder', () => {
    const rows = toolFolderRows({ agenvoyHome: '/home/u/.config/agenvoy/tools/script', agenvoyProject: '/work/app/.config/agenvoy/tools/script' });
    expect(rows.slice(0, 2).map((r) => [r.keys, r.path, r.note])).toEqual([
      [['agenvoyHome'], '/home/u/.config/agenvoy/tools/script', undefined],
      [['agenvoyProject'], '/work/app/.config/agenvoy/tools/script', undefined],
    ]);
  });
});
