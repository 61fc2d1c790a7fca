import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planProtectedBinds } from '../../../electron/runtime/runner/protected-binds.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const homes = tempHomes();
afterAll(() => homes.removeAll());

function tree(...dirs: string[]): string {
  const base = homes.make();
  for (const d of dirs) mkdirSync(join(base, d), { recursive: true });
  return base;
}

describe('planProtectedBinds', () => {
  it('binds a protected folder inside a writable one read-only and pins every folder between them', () => {
    const h = tree('proj/a/b/tools');
    const plan = planProtectedBinds([h], [{ path: join(h, 'proj/a/b/tools'), guardMissing: false }]);
    expect(plan.readOnly).toEqual([join(h, 'proj/a/b/tools')]);
    expect(plan.pinned).toEqual([join(h, 'proj'), join(h, 'proj/a'), join(h, 'proj/a/b')]);
    expect(plan.demoted).toEqual([]);
  });

  it('pins from the outermost writable folder, since the inner one could be moved with its parent', () => {
    const h = tree('code/proj/.omp/tools');
    const proj = join(h, 'code/proj');
    const plan = planProtectedBinds([h, proj], [{ path: join(proj, '.omp/tools'), guardMissing: false }]);
    expect(plan.pinned).toEqual([join(h, 'code'), join(proj, '.omp')]);
  });

  it('makes a writable folder inside a protected one read-only and says so; the same folder too', () => {
    const h = tree('root/work');
    const inside = planProtectedBinds([join(h, 'root/work')], [{ path: join(h, 'root'), guardMissing: false }]);
    expect(inside.readOnly).toEqual([join(h, 'root/work')]);
    expect(inside.demoted).toEqual([{ writable: join(h, 'root/work'), inside: join(h, 'root') }]);
    const same = planProtectedBinds([join(h, 'root')], [{ path: join(h, 'root'), guardMissing: false }]);
    expect(same.readOnly).toEqual([join(h, 'root')]);
    expect(same.demoted).toEqual([{ writable: join(h, 'root'), inside: join(h, 'root') }]);
  });

  it('leaves alone what no writable folder reaches', () => {
    const h = tree('w', 'elsewhere/tools');
    expect(planProtectedBinds([join(h, 'w')], [{ path: join(h, 'elsewhere/tools'), guardMissing: true }])).toEqual({ pinned: [], guarded: [], readOnly: [], demoted: [] });
  });

  it('guards the first missing folder of a missing protected path only when asked, never inside a read-only one', () => {
    const h = tree('.config');
    const guarded = planProtectedBinds([h], [{ path: join(h, '.omp/agent/tools'), guardMissing: true }]);
    expect(guarded.guarded).toEqual([join(h, '.omp')]);
    expect(guarded.readOnly).toEqual([]);
    expect(planProtectedBinds([h], [{ path: join(h, '.omp/agent/tools'), guardMissing: false }]).guarded).toEqual([]);
    const covered = planProtectedBinds([h], [{ path: join(h, '.config'), guardMissing: false }, { path: join(h, '.config/Tooldesk/tools'), guardMissing: true }]);
    expect(covered.guarded).toEqual([]);
    expect(covered.readOnly).toEqual([join(h, '.config')]);
  });

  it('follows symbolic links to the real folder (bwrap binds real paths)', () => {
    const h = tree('real/tools', 'w');
    symlinkSync(join(h, 'real'), join(h, 'w/link'));
    const plan = planProtectedBinds([h], [{ path: join(h, 'w/link/tools'), guardMissing: false }]);
    expect(plan.readOnly).toEqual([join(h, 'real/tools')]);
  });

  it('ignores relative paths instead of guessing what they mean', () => {
    const h = mkdtempSync('/var/tmp/td-pb-');
    expect(planProtectedBinds([h], [{ path: 'tools', guardMissing: true }]).readOnly).toEqual([]);
  });
});
