// The Markdown pages of the docs (README.md and docs/**), read once, and what the doc tests look
// for in them: fenced blocks with the comment line above each, links, and table cells.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../run-cli.ts';

export interface Fence {
  page: string;
  lang: string;
  body: string;
  /** The line number of the opening fence (1-based). */
  line: number;
  /** `<!-- … -->` on the line before the fence (blank lines skipped), without the markers. */
  note?: string;
}

export interface Page {
  /** Relative to the checkout: `README.md`, `docs/mcp/servers.md`. */
  path: string;
  text: string;
}

export function docPages(): Page[] {
  const found: string[] = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'examples') walk(path);
      } else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found.map((path) => ({ path, text: readFileSync(join(repoRoot, path), 'utf8') }));
}

export function fences(page: Page): Fence[] {
  const lines = page.text.split('\n');
  const out: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) j++;
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const note = k >= 0 ? /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[k]!)?.[1] : undefined;
    out.push({ page: page.path, lang: open[2]!, body: lines.slice(i + 1, j).map((l) => l.slice(indent)).join('\n'), line: i + 1, ...(note ? { note } : {}) });
    i = j;
  }
  return out;
}

/** Markdown links `[text](target)` outside code, with their line. */
export function links(page: Page): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  let code = false;
  page.text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) code = !code;
    if (code) return;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) out.push({ target: m[1]!, line: i + 1 });
  });
  return out;
}

/** GitHub's anchor of a heading. */
export function headingAnchor(title: string): string {
  return title.trim().toLowerCase().replace(/[`*~[\]()]/g, '').replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}

export function anchorsOf(page: Page): Set<string> {
  const anchors = new Set<string>();
  let code = false;
  for (const line of page.text.split('\n')) {
    if (/^\s*```/.test(line)) code = !code;
    const m = !code && /^#{1,6} (.*)$/.exec(line);
    if (m) anchors.add(headingAnchor(m[1]!));
  }
  return anchors;
}

/** The cells of the Markdown tables outside code. */
export function tableCells(page: Page): Array<{ cell: string; line: number }> {
  const out: Array<{ cell: string; line: number }> = [];
  let code = false;
  page.text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) code = !code;
    if (code || !/^\s*\|.*\|\s*$/.test(line)) return;
    for (const cell of line.trim().slice(1, -1).split(/(?<!\\)\|/)) out.push({ cell: cell.trim(), line: i + 1 });
  });
  return out;
}

export const relativeToRepo = (path: string) => relative(repoRoot, path);
