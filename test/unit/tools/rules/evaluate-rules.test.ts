import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolRule } from '../../../../shared/permissions.ts';
import { compileRules } from '../../../../electron/runtime/tools/rules/compile-rules.ts';
import { ruleProblems } from '../../../../shared/tool-rule.ts';
import { evaluateRules } from '../../../../electron/runtime/tools/rules/evaluate-rules.ts';
import { globToRegExp } from '../../../../electron/runtime/tools/rules/glob.ts';
import { nameSkeleton } from '../../../../electron/runtime/tools/rules/look-alike.ts';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rules-'));
  mkdirSync(join(home, '.ssh'));
  mkdirSync(join(home, 'projects', 'app'), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function decide(rules: ToolRule[], tool: string, args: Record<string, unknown>, names: string[] = [tool]) {
  return evaluateRules(compileRules(rules, { home }), { names, args }, { home, bases: [join(home, 'projects')] });
}

describe('globs', () => {
  it('match tool names with * and ?, and only whole names', () => {
    const re = globToRegExp('browser_*', { paths: false });
    expect(re.test('browser_navigate')).toBe(true);
    expect(re.test('xbrowser_navigate')).toBe(false);
    expect(globToRegExp('fs__rea?', { paths: false }).test('fs__read')).toBe(true);
    expect(globToRegExp('a.b', { paths: false }).test('axb')).toBe(false);
  });
  it('keep * inside one folder on paths, ** across folders', () => {
    expect(globToRegExp('/h/*.txt', { paths: true }).test('/h/a.txt')).toBe(true);
    expect(globToRegExp('/h/*.txt', { paths: true }).test('/h/d/a.txt')).toBe(false);
    expect(globToRegExp('/h/**', { paths: true }).test('/h/d/e/a.txt')).toBe(true);
    expect(globToRegExp('/h/**', { paths: true }).test('/h')).toBe(true);
    expect(globToRegExp('/h/**/x', { paths: true }).test('/h/x')).toBe(true);
  });
  it('let * cross slashes in URLs', () => {
    expect(globToRegExp('http://localhost:*', { paths: false }).test('http://localhost:3000/a/b')).toBe(true);
    expect(globToRegExp('http://localhost:*', { paths: false }).test('http://evil.com/?http://localhost:1')).toBe(false);
  });
});

describe('rules', () => {
  it('allow a URL pattern and leave other calls to the policy', () => {
    const rules: ToolRule[] = [{ action: 'allow', tool: 'browser_navigate', where: [{ path: 'url', glob: 'http://localhost:*' }] }];
    expect(decide(rules, 'browser_navigate', { url: 'http://localhost:5173/' })).toMatchObject({ action: 'allow', rule: 1 });
    expect(decide(rules, 'browser_navigate', { url: 'https://example.com' })).toEqual({ action: 'none' });
    expect(decide(rules, 'browser_back', { url: 'http://localhost:1' })).toEqual({ action: 'none' });
  });

  it('let deny win over an earlier allow and an ask, naming the deny rule and its reason', () => {
    const rules: ToolRule[] = [
      { action: 'allow', tool: '*' },
      { action: 'ask', tool: 'write_*' },
      { action: 'deny', tool: 'write_file', where: [{ path: 'path', prefix: '~/.ssh' }], reason: 'keys stay private' },
    ];
    expect(decide(rules, 'write_file', { path: '~/.ssh/id_rsa' })).toEqual({ action: 'deny', rule: 3, label: 'rule 3', reason: 'keys stay private' });
    expect(decide(rules, 'write_file', { path: '~/notes.txt' })).toMatchObject({ action: 'ask', rule: 2 });
    expect(decide(rules, 'read_file', { path: '~/notes.txt' })).toMatchObject({ action: 'allow', rule: 1 });
  });

  it('normalise ~ and .. before a prefix, so ~/projects/../.ssh is caught', () => {
    const rules: ToolRule[] = [{ action: 'deny', tool: '*', where: [{ path: 'path', prefix: '~/.ssh' }] }];
    expect(decide(rules, 't', { path: '~/projects/../.ssh/id_rsa' }).action).toBe('deny');
    expect(decide(rules, 't', { path: `${home}/projects/app/../../.ssh` }).action).toBe('deny');
    expect(decide(rules, 't', { path: '../.ssh/config' }).action).toBe('deny');
    // A sibling folder whose name starts the same is not inside.
    expect(decide(rules, 't', { path: '~/.sshfoo/x' }).action).toBe('none');
  });

  it('resolve symlinks: a link into ~/.ssh is ~/.ssh', () => {
    symlinkSync(join(home, '.ssh'), join(home, 'projects', 'keys'));
    const deny: ToolRule[] = [{ action: 'deny', tool: '*', where: [{ path: 'path', glob: '~/.ssh/**' }] }];
    expect(decide(deny, 't', { path: '~/projects/keys/id_rsa' }).action).toBe('deny');
    const allow: ToolRule[] = [{ action: 'allow', tool: '*', where: [{ path: 'path', glob: '~/projects/**' }] }];
    expect(decide(allow, 't', { path: '~/projects/app/main.ts' }).action).toBe('allow');
    expect(decide(allow, 't', { path: '~/projects/keys/id_rsa' }).action).toBe('none');
    expect(decide(allow, 't', { path: '~/projects/../.ssh/id_rsa' }).action).toBe('none');
  });

  it('match regex and equals, and every string when no path is given', () => {
    const rules: ToolRule[] = [
      { action: 'deny', tool: 'shell', where: [{ path: 'command', regex: '\\brm\\s+-rf\\b' }] },
      { action: 'ask', tool: 'db', where: [{ path: 'readonly', equals: false }] },
      { action: 'deny', tool: 'any', where: [{ glob: '*secret*' }] },
    ];
    expect(decide(rules, 'shell', { command: 'cd / && rm -rf x' }).action).toBe('deny');
    expect(decide(rules, 'shell', { command: 'ls' }).action).toBe('none');
    expect(decide(rules, 'db', { readonly: false }).action).toBe('ask');
    expect(decide(rules, 'db', { readonly: true }).action).toBe('none');
    expect(decide(rules, 'any', { a: [{ b: { c: 'my-secret-file' } }] }).action).toBe('deny');
  });

  it('reach into lists with * and JSON pointers; allow needs every item to match', () => {
    const allow: ToolRule[] = [{ action: 'allow', tool: 'copy', where: [{ path: 'files.*.path', glob: '~/projects/**' }] }];
    expect(decide(allow, 'copy', { files: [{ path: '~/projects/a' }, { path: '~/projects/b' }] }).action).toBe('allow');
    expect(decide(allow, 'copy', { files: [{ path: '~/projects/a' }, { path: '~/.ssh/b' }] }).action).toBe('none');
    expect(decide(allow, 'copy', { files: [] }).action).toBe('none');
    const deny: ToolRule[] = [{ action: 'deny', tool: 'copy', where: [{ path: '/files/1/path', prefix: '~/.ssh' }] }];
    expect(decide(deny, 'copy', { files: [{ path: '~/projects/a' }, { path: '~/.ssh/b' }] }).action).toBe('deny');
  });

  it('catch look-alike tool names with deny, never grant allow to them', () => {
    const deny: ToolRule[] = [{ action: 'deny', tool: 'delete_*' }];
    expect(decide(deny, 'dеlete_file', {}).action).toBe('deny'); // Cyrillic е
    expect(decide(deny, 'ｄelete_file', {}).action).toBe('deny'); // fullwidth d
    expect(decide(deny, 'de\u200blete_file', {}).action).toBe('deny'); // zero-width space
    const allow: ToolRule[] = [{ action: 'allow', tool: 'delete_file' }];
    expect(decide(allow, 'dеlete_file', {}).action).toBe('none');
    expect(nameSkeleton('Ｄеlete')).toBe('delete');
  });

  it('report bad patterns naming the field, and make such a rule deny its tools', () => {
    expect(ruleProblems({ action: 'deny', tool: 'x', where: [{ path: 'a', regex: '(' }] })[0]).toMatch(/^where\[0\]\.regex: invalid regular expression/);
    expect(ruleProblems({ action: 'maybe', tool: '' })).toHaveLength(2);
    expect(ruleProblems({ action: 'allow', tool: 'x', where: [{ path: 'a', glob: '*', prefix: 'b' }] })[0]).toMatch(/exactly one of/);
    const broken = decide([{ action: 'allow', tool: 'shell', where: [{ path: 'c', regex: '[' }] }], 'shell', { c: 'ls' });
    expect(broken.action).toBe('deny');
    expect(broken.reason).toMatch(/rule 1 cannot be used .*tooldesk rules remove 1/);
    expect(decide([{ action: 'allow', tool: 'shell', where: [{ path: 'c', regex: '[' }] }], 'other', {}).action).toBe('none');
  });

  it('match the name the model sees as well as the real one', () => {
    const rules: ToolRule[] = [{ action: 'deny', tool: 'my.tool' }];
    expect(decide(rules, 'my_tool', {}, ['my.tool', 'my_tool']).action).toBe('deny');
  });
});
