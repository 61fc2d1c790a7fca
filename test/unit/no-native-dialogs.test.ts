// Issue 25: the renderer asks through its own dialogs (ui/dialog.tsx). window.prompt does not
// exist in Electron (the button would throw in the desktop app), and confirm/alert block the
// whole window. Not one call of the three may come back, under any spelling.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const rendererDir = join(root, 'renderer/src');

/** Calls of prompt/confirm/alert: bare, as window./globalThis./self. members, or window['…']. */
export function nativeDialogCalls(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const patterns = [/(?<![\w$.])(prompt|confirm|alert)\s*\(/g, /\b(?:window|globalThis|self)\s*(?:\.\s*|\[\s*['"`])(prompt|confirm|alert)\b/g];
  return patterns.flatMap((p) => [...code.matchAll(p)].map((m) => m[0]));
}

describe('no native dialogs in renderer/src', () => {
  it('finds the calls it must refuse, and not names that merely contain them', () => {
    expect(nativeDialogCalls('if (!confirm(`Delete?`)) return;')).toHaveLength(1);
    expect(nativeDialogCalls('const name = window.prompt("Name");')).toHaveLength(1);
    expect(nativeDialogCalls("window['alert']('x')")).toHaveLength(1);
    expect(nativeDialogCalls('const p = globalThis.confirm;')).toHaveLength(1);
    expect(nativeDialogCalls('await confirmDialog({ title }); promptDialog(); setPrompt(x); a.confirm(1);')).toEqual([]);
    expect(nativeDialogCalls('// no confirm() here\n/* nor alert() */')).toEqual([]);
  });

  it('renderer/src calls none of window.prompt, confirm and alert', () => {
    const files = readdirSync(rendererDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && /\.(ts|tsx)$/.test(d.name));
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((d) => {
      const file = join(d.parentPath, d.name);
      return nativeDialogCalls(readFileSync(file, 'utf8')).map((call) => `${relative(root, file)}: ${call}`);
    });
    expect(found).toEqual([]);
  });
});
