import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeMask, maskAdditions } from '../../../electron/runtime/runner/sandbox-mask.ts';

describe('maskAdditions', () => {
  it('names only what the helper does not hide yet; paths inside a hidden folder are covered', () => {
    const before = { dirs: ['/h/.ssh'], files: ['/w/.env'] };
    const now = { dirs: ['/h/.ssh', '/h/.aws'], files: ['/w/.env', '/w/new.key', '/h/.ssh/id.pem'] };
    expect(maskAdditions(before, now)).toEqual({ dirs: ['/h/.aws'], files: ['/w/new.key'] });
    expect(maskAdditions(now, now)).toEqual({ dirs: [], files: [] });
  });
});

describe('computeMask', () => {
  it('sees a secret file created after an earlier computation (the scan cache follows folder mtimes)', () => {
    const work = mkdtempSync(join(tmpdir(), 'td-mask-work-'));
    // Under /tmp only what is bound is visible in the sandbox (and so worth hiding): the home here is.
    const home = join(work, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    const layout = { homeDir: home, toolDir: work, writable: [work], allowHomeWrite: false, homeIsWorkingFolder: false };
    const first = computeMask(layout);
    expect(first.dirs).toContain(join(home, '.ssh'));
    expect(first.files).toEqual([]);
    writeFileSync(join(work, '.env'), 'x');
    expect(maskAdditions(first, computeMask(layout))).toEqual({ dirs: [], files: [join(work, '.env')] });
  });
});
