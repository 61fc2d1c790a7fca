// "e" at a terminal approval: new arguments from $VISUAL/$EDITOR (stdin a terminal) or one line of
// JSON (a pipe, or no editor), checked with the session's own validator and asked again when
// invalid; the decision carries them. The editor is a real program (a shell script) here.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../shared/tools.ts';
import { TerminalApprover } from '../../../electron/cli/terminal-approver.ts';

const request: ApprovalRequest = { id: 'r', type: 'execution', sessionId: 's', callId: 'c', toolName: 'compare', groupName: 'g', args: { cities: ['Oslo', 'Rome'] }, policy: 'ask-once' };

/** Cities must be an array of strings: what the tool's schema would say. */
const checkArgs = (_tool: string, args: Record<string, unknown>) =>
  Array.isArray(args.cities) && args.cities.every((c) => typeof c === 'string') ? { ok: true } : { ok: false, message: 'Invalid arguments for compare: cities must be array' };

function terminal(tty: boolean) {
  const input = new PassThrough();
  Object.assign(input, { isTTY: tty });
  const output = new PassThrough();
  let printed = '';
  output.on('data', (d: Buffer) => (printed += d.toString()));
  return { input, output, printed: () => printed };
}

/** An editor that writes each of `versions` in turn (one per opening) and logs what it was given. */
function fakeEditor(versions: string[], exitCode = 0): { command: string; seen: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'td-editor-'));
  versions.forEach((v, i) => writeFileSync(join(dir, `v${i}`), v));
  writeFileSync(join(dir, 'n'), '0');
  const script = join(dir, 'edit.sh');
  writeFileSync(script, `#!/bin/sh\nn=$(cat "${dir}/n")\ncat "$1" >> "${dir}/seen"\nprintf '\\n---\\n' >> "${dir}/seen"\ncp "${dir}/v$n" "$1"\necho $((n+1)) > "${dir}/n"\nexit ${exitCode}\n`);
  chmodSync(script, 0o755);
  return { command: `sh ${script}`, seen: () => readFileSync(join(dir, 'seen'), 'utf8').split('\n---\n').filter(Boolean) };
}

describe('editing arguments at a terminal approval', () => {
  it('in $EDITOR on a terminal: an invalid version is explained and the editor opens again on it', async () => {
    const t = terminal(true);
    const editor = fakeEditor(['{"cities": [1, 2]}', '{"cities": ["Oslo", "Lima"]}']);
    const approver = new TerminalApprover(t.input, t.output, { checkArgs, env: { EDITOR: editor.command } });
    t.input.write('e\n');
    const answer = approver.ask(request);
    // Approving after the edits: written once the editor has run twice.
    const wait = setInterval(() => {
      if (t.printed().includes('(arguments edited by you)')) {
        clearInterval(wait);
        t.input.write('y\n');
      }
    }, 20);
    await expect(answer).resolves.toEqual({ decision: 'once', args: { cities: ['Oslo', 'Lima'] } });
    expect(t.printed()).toContain('  Not valid for compare:\n    Invalid arguments for compare: cities must be array\n  Try again.');
    expect(t.printed()).toContain('? Run compare {"cities":["Oslo","Lima"]}? (arguments edited by you)');
    // The editor first got the call's arguments, then the invalid version to fix.
    expect(editor.seen().map((s) => JSON.parse(s))).toEqual([{ cities: ['Oslo', 'Rome'] }, { cities: [1, 2] }]);
    approver.close();
  });

  it('$VISUAL wins over $EDITOR; an editor that fails leaves the arguments as they were', async () => {
    const t = terminal(true);
    const failing = fakeEditor(['{"cities": ["X"]}'], 3);
    const approver = new TerminalApprover(t.input, t.output, { checkArgs, env: { VISUAL: failing.command, EDITOR: 'false-editor-never-run' } });
    t.input.write('e\n');
    const answer = approver.ask(request);
    const wait = setInterval(() => {
      if (t.printed().includes('the arguments are unchanged')) {
        clearInterval(wait);
        t.input.write('y\n');
      }
    }, 20);
    await expect(answer).resolves.toEqual({ decision: 'once' });
    expect(t.printed()).toMatch(/the editor "sh .*edit\.sh" exited with code 3; the arguments are unchanged/);
    approver.close();
  });

  it('through a pipe: one line of JSON, retried on bad JSON, a non-object and a schema error; edit again before approving', async () => {
    const t = terminal(false);
    const approver = new TerminalApprover(t.input, t.output, { checkArgs, env: { EDITOR: 'vi' } });
    t.input.end(['e', '{oops', '[1]', '{"cities": "Oslo"}', '{"cities": ["A"]}', 'e', '{"cities": ["A", "B"]}', 's'].join('\n') + '\n');
    await expect(approver.ask(request)).resolves.toEqual({ decision: 'session', args: { cities: ['A', 'B'] } });
    const printed = t.printed();
    expect(printed).toMatch(/That is not valid JSON \(.*\)\. Try again\./);
    expect(printed).toContain('The arguments must be one JSON object, like {"key": "value"}. Try again.');
    expect(printed).toContain('  Not valid for compare:\n    Invalid arguments for compare: cities must be array\n  Try again.');
    expect(printed).toContain('[e]dit arguments');
    approver.close();
  });

  it('an empty line or end of input keeps the arguments; a result approval cannot be edited', async () => {
    const t = terminal(false);
    const approver = new TerminalApprover(t.input, t.output, { checkArgs, env: {} });
    t.input.end('e\n\nn: no\ne\n');
    await expect(approver.ask(request)).resolves.toEqual({ decision: 'reject', reason: 'no' });
    expect(t.printed()).toContain('The arguments are unchanged.');
    expect(t.printed()).toContain('set $EDITOR to edit them in an editor on a terminal');
    const result = await approver.ask({ ...request, id: 'r2', type: 'result', policy: 'always', result: { status: 'SUCCESS', text: 'x' } });
    // "e" is not an answer there: end of input follows, a rejection.
    expect(result.decision).toBe('reject');
    approver.close();
  });
});
