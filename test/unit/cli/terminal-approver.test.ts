import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../shared/tools.ts';
import { TerminalApprover } from '../../../electron/cli/terminal-approver.ts';
import { parseConfigValue } from '../../../electron/cli/commands/config.ts';

const request = (toolName: string): ApprovalRequest => ({
  id: toolName,
  type: 'execution',
  sessionId: 's',
  callId: 'c',
  toolName,
  groupName: 'g',
  args: { path: '/tmp/x' },
  policy: 'ask-once',
});

describe('terminal approvals', () => {
  it('reads one answer per question, in order, and rejects at end of input', async () => {
    const output = new PassThrough();
    let asked = '';
    output.on('data', (d: Buffer) => (asked += d.toString()));
    const approver = new TerminalApprover(Readable.from(['y\ns\n', 'a\nn: too risky: it deletes files\nwhatever this is\n']), output);
    const answers = await Promise.all(['t1', 't2', 't3', 't4', 't5', 't6'].map((t) => approver.ask(request(t))));
    expect(answers).toEqual([
      { decision: 'once' },
      { decision: 'session' },
      { decision: 'always' },
      { decision: 'reject', reason: 'too risky: it deletes files' },
      { decision: 'reject', reason: 'whatever this is' },
      { decision: 'reject', reason: 'No answer came (the input ended).', unasked: true },
    ]);
    expect(asked).toContain('? Run t1 {"path":"/tmp/x"}?');
    approver.close();
  });

  it('config values are JSON when they parse, text otherwise', () => {
    expect(parseConfigValue('40')).toBe(40);
    expect(parseConfigValue('{"a":true}')).toEqual({ a: true });
    expect(parseConfigValue('null')).toBeNull();
    expect(parseConfigValue('Be brief.')).toBe('Be brief.');
  });
});
