// The forms a path argument is matched in (issue #32 items 4, 5, 6, 14): every way a tool may
// read it, folded, real and as the kernel resolves it; what cannot be resolved says so.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolRule } from '../../../../shared/permissions.ts';
import { compileRules } from '../../../../electron/runtime/tools/rules/compile-rules.ts';
import { evaluateRules } from '../../../../electron/runtime/tools/rules/evaluate-rules.ts';
import { kernelPath, realOf } from '../../../../electron/runtime/tools/rules/kernel-path.ts';
import { looksLikePath, valueForms } from '../../../../electron/runtime/tools/rules/normalise-path.ts';
import { readingsOf } from '../../../../electron/runtime/tools/rules/path-readings.ts';

let home: string;
let work: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'forms-'));
  work = join(home, 'work');
  mkdirSync(join(home, 'private'), { recursive: true });
  mkdirSync(join(home, 'pub'));
  mkdirSync(work);
  writeFileSync(join(home, 'private/x'), 'x');
  symlinkSync(join(home, 'private'), join(home, 'pub/link'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const ctx = () => ({ home, bases: [work] });
const kernel = (raw: string) => kernelPath(raw, raw, realOf(raw));

describe('readings: what a tool may make of the text', () => {
  it('expands ~ followed by any number of slashes into the home, as expanduser and path.join do', () => {
    expect(valueForms('~//private/x', ctx()).strict).toEqual([join(home, 'private/x')]);
    expect(valueForms('~///private///x', ctx()).strict).toEqual([join(home, 'private/x')]);
    expect(valueForms('~', ctx()).strict).toEqual([home]);
  });

  it('reads ~user from the password database, and also as a folder named so where the tool runs', () => {
    expect(readingsOf('~root/.profile', ctx()).paths).toEqual(['/root/.profile', `${work}/~root/.profile`]);
    expect(readingsOf('~no-such-user-x/a', ctx()).paths).toEqual([`${work}/~no-such-user-x/a`]);
    expect(readingsOf('~+/a', ctx()).paths).toEqual([`${work}/a`, `${work}/~+/a`]);
  });

  it('takes whitespace off (Python strip and trim), backslashes as separators, file: URLs decoded', () => {
    for (const padded of [' ~/private/x', '\t~/private/x\n', '~/private/x  ', '\u00a0~/private/x\u3000']) {
      expect(valueForms(padded, ctx()).strict, JSON.stringify(padded)).toContain(join(home, 'private/x'));
    }
    expect(valueForms('~\\private\\x', ctx()).strict).toContain(join(home, 'private/x'));
    expect(valueForms(`file://${home}/%70rivate/x`, ctx()).strict).toContain(join(home, 'private/x'));
    expect(valueForms('file://~/private/x', ctx()).strict).toContain(join(home, 'private/x'));
  });

  it('resolves a relative path against every folder the tool may use; with none known it is unresolvable', () => {
    expect(valueForms('../private/x', { home, bases: [work, join(home, 'pub/link')] }).strict).toEqual([join(home, 'private/x'), join(home, 'pub/private/x')]);
    expect(valueForms('../private/x', { home, bases: [] })).toMatchObject({ strict: [], unresolvable: true });
    expect(valueForms('/abs/x', { home, bases: [] }).unresolvable).toBe(false);
  });

  it('counts whitespace-padded, ~user and file: values as paths, and plain words not', () => {
    for (const v of [' ~/x', '\t/abs', '~root/x', 'file:///x', '\u00a0/x']) expect(looksLikePath(v), v).toBe(true);
    for (const v of ['hello', 'https://x.org/a', '', ' word']) expect(looksLikePath(v), v).toBe(false);
  });
});

describe('the kernel\'s order: each symlink followed, then `..`', () => {
  it('goes through a link before `..`', () => {
    expect(kernel(`${home}/pub/link/../private/x`)).toBe(join(home, 'private/x'));
    expect(kernel(`${home}/pub/link/../pub/link/x`)).toBe(join(home, 'private/x'));
    expect(valueForms('~/pub/link/../private/x', ctx()).strict).toEqual([join(home, 'pub/private/x'), join(home, 'private/x')]);
  });

  it('folds what does not exist yet, and looks up again once `..` is back in what does', () => {
    expect(kernel(`${home}/pub/new/../link/x`)).toBe(join(home, 'private/x'));
    expect(kernel(`${home}/pub/new/deeper/../../link/../y`)).toBe(join(home, 'y'));
  });

  it('follows a dangling link to where a created file would go', () => {
    symlinkSync(join(home, 'private/new.txt'), join(home, 'pub/dangling'));
    expect(valueForms('~/pub/dangling', ctx()).strict).toContain(join(home, 'private/new.txt'));
  });

  it('cannot resolve a loop, /proc/self, /proc/<pid>/cwd|root|fd, /dev/fd, /dev/stdin, or a link to them', () => {
    symlinkSync(join(home, 'pub/loop'), join(home, 'pub/loop'));
    symlinkSync('/proc/self/cwd', join(home, 'pub/here'));
    for (const path of [
      '~/pub/loop/x',
      '/proc/self/cwd/../../x',
      '/proc/self/environ',
      '/proc/thread-self/root/etc',
      `/proc/${process.pid}/cwd/x`,
      `/proc/1/root${home}/private/x`,
      '/proc/1/task/1/cwd/x',
      '/dev/fd/3',
      '/dev/stdin',
      '~/pub/here/x',
    ]) {
      expect(valueForms(path, ctx()).unresolvable, path).toBe(true);
    }
    for (const path of ['/proc/cpuinfo', '/proc/1/status', '/dev/null', '~/pub/link/x']) expect(valueForms(path, ctx()).unresolvable, path).toBe(false);
  });
});

describe('rules on what cannot be resolved: deny generously, allow strictly', () => {
  const decide = (rules: ToolRule[], path: string) => evaluateRules(compileRules(rules, { home }), { names: ['t'], args: { path } }, ctx()).action;

  it('a deny or ask on a path matches it; an allow never does', () => {
    const deny: ToolRule = { action: 'deny', tool: 't', where: [{ path: 'path', glob: '~/private/**' }] };
    const ask: ToolRule = { action: 'ask', tool: 't', where: [{ path: 'path', prefix: '/etc' }] };
    const allow: ToolRule = { action: 'allow', tool: 't', where: [{ path: 'path', glob: '/proc/**' }] };
    expect(decide([deny], '/proc/self/cwd/../../x')).toBe('deny');
    expect(decide([ask], '/dev/fd/0')).toBe('ask');
    expect(decide([allow], '/proc/self/cwd/x')).toBe('none');
    expect(decide([allow], '/proc/cpuinfo')).toBe('allow');
    // A value at another argument is not this rule's business.
    expect(evaluateRules(compileRules([deny], { home }), { names: ['t'], args: { path: '~/pub/ok', other: '/proc/self/cwd' } }, ctx()).action).toBe('none');
  });

  it('an allow rule on the tools folder does not cover a path a `~user` reading takes elsewhere', () => {
    const allow: ToolRule = { action: 'allow', tool: 't', where: [{ path: 'path', glob: `${work}/**` }] };
    expect(decide([allow], 'notes.txt')).toBe('allow');
    expect(decide([allow], '~root/notes.txt')).toBe('none');
  });
});
