// Issue 37: the app's "?" links. Every Settings section names a docs page, and so does every tool
// format's diagnostic; each page named exists in the repository's docs/ (as the runtime's
// openDocs resolves it), so a moved or renamed page fails here instead of in the user's hands.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS_SECTIONS } from '../../../renderer/src/settings/settings-sections.ts';
import { DOCS_PAGE_PATTERN, FORMAT_DOCS, TOOLS_DOCS, TRUST_DOCS, diagnosticDocs } from '../../../shared/docs-pages.ts';
import { UNTRUSTED_FOLDER_CODE } from '../../../shared/tools.ts';

// The renderer project runs in jsdom (import.meta.url is not a file URL there); vitest runs from the root.
const docs = join(process.cwd(), 'docs');

describe('links to the docs', () => {
  it('every Settings section has a docs page, and it exists', () => {
    expect(existsSync(join(docs, 'getting-started.md'))).toBe(true);
    expect(SETTINGS_SECTIONS.length).toBeGreaterThan(0);
    const missing = SETTINGS_SECTIONS.filter((s) => !s.docs || !DOCS_PAGE_PATTERN.test(s.docs) || !existsSync(join(docs, s.docs))).map((s) => `${s.title}: ${s.docs}`);
    expect(missing).toEqual([]);
  });

  it("every tool format's diagnostics, and the format-less ones, link to a page that exists", () => {
    const pages = [...Object.values(FORMAT_DOCS), TOOLS_DOCS, TRUST_DOCS];
    expect(pages.filter((p) => !DOCS_PAGE_PATTERN.test(p) || !existsSync(join(docs, p)))).toEqual([]);
    expect(diagnosticDocs({ severity: 'error', file: 'x.py', message: 'm', docs: FORMAT_DOCS.python })).toBe('tools/python-powershell.md');
    expect(diagnosticDocs({ severity: 'warning', file: '/p', message: 'm', code: UNTRUSTED_FOLDER_CODE })).toBe('security.md');
    expect(diagnosticDocs({ severity: 'error', file: '/p', message: 'm' })).toBe('tools/README.md');
  });
});
