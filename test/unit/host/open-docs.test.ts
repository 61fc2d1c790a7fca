// api.openDocs: a docs page by its name under docs/, opened with the system; a name that is not a
// page of that folder (traversal, another extension, a symlink out, a missing page) is refused by name.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docsDir, docsPagePath, openDocs } from '../../../electron/runtime/host/docs/open-docs.ts';
import { repoRoot } from '../../support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'td-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openDocs', () => {
  it("finds the repository's docs folder and opens a page of it", async () => {
    expect(docsDir({})).toBe(join(repoRoot, 'docs'));
    const asked: string[] = [];
    const answer = await openDocs('mcp/servers.md', async (target) => (asked.push(target), true));
    expect(answer).toEqual({ path: join(repoRoot, 'docs/mcp/servers.md'), opened: true });
    expect(asked).toEqual([answer.path]);
  });

  it('refuses what is not a page of the folder, naming it', () => {
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.md'), '# A');
    writeFileSync(join(dir, 'secret.md'), 'no');
    symlinkSync(join(dir, 'secret.md'), join(dir, 'docs', 'out.md'));
    const at = join(dir, 'docs');
    expect(docsPagePath('a.md', at)).toBe(join(at, 'a.md'));
    expect(() => docsPagePath('../secret.md', at)).toThrow('"../secret.md" is not a docs page name');
    expect(() => docsPagePath('/etc/passwd', at)).toThrow('is not a docs page name');
    expect(() => docsPagePath('a.txt', at)).toThrow('is not a docs page name');
    expect(() => docsPagePath('gone.md', at)).toThrow(`no docs page gone.md in ${at}`);
    expect(() => docsPagePath('out.md', at)).toThrow('docs page out.md is outside');
  });
});
