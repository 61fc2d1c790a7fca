// Tool results written before ToolExecuteResult became a union on `status` (every field optional)
// load as the union: `finalText` always there, each status with what it needs and only its fields.
import { mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionFile } from '../../../../electron/runtime/chat/persistence/session-file.ts';
import { toolResultFromFile } from '../../../../electron/runtime/chat/persistence/session-result.ts';
import type { ToolResultMessage } from '../../../../shared/chat.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function readFixture(name: string) {
  const dir = mkdtempSync(join(tmpdir(), 'session-result-'));
  dirs.push(dir);
  const file = join(dir, 'old.jsonl');
  copyFileSync(new URL(`../../../fixtures/sessions/${name}`, import.meta.url), file);
  return readSessionFile(file, 'mx0ld5re-5u1t00');
}

describe('a session log with results in the old optional-field shape', () => {
  it('loads every call, each result as its status with finalText and only its own fields', () => {
    const state = readFixture('optional-results-v1.jsonl');
    expect(state.warnings).toEqual([]);
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'tool', 'tool', 'assistant']);
    const results = state.messages.filter((m): m is ToolResultMessage => m.role === 'tool').map((m) => m.result);
    expect(results).toEqual([
      { toolName: 'echo', status: 'SUCCESS', finalText: 'hi', data: 'hi', formattedText: 'hi', callId: 'call_ok', durationMs: 3 },
      { status: 'ERROR', finalText: 'Error: text is required', error: 'Error: text is required', cancelled: true },
      { toolName: 'echo', status: 'EXECUTION_REJECTED', finalText: 'The user did not allow running echo.', rejectReason: '' },
      { status: 'NOT_FOUND', finalText: 'Tool "nope" does not exist.', error: 'Tool "nope" does not exist.' },
      {
        toolName: 'echo',
        status: 'RESULT_REJECTED',
        finalText: 'The user withheld the result of echo: private',
        rejectReason: 'private',
        editedArgs: { text: 'y' },
      },
    ]);
  });

  it('reads a result that is missing or not an object as an ERROR that says so', () => {
    expect(toolResultFromFile(undefined, undefined)).toEqual({ status: 'ERROR', finalText: 'The result of this call was not kept.', error: 'The result of this call was not kept.' });
    expect(toolResultFromFile('junk', 'what the model saw')).toEqual({ status: 'ERROR', finalText: 'what the model saw', error: 'what the model saw' });
    expect(toolResultFromFile({ status: 'WEIRD', error: 'boom' }, 5)).toEqual({ status: 'ERROR', finalText: 'boom', error: 'boom' });
  });

  it('leaves a result in the current shape as it is', () => {
    const current = { toolName: 't', status: 'SUCCESS', finalText: 'ok', data: { a: 1 }, isTruncated: false, inspection: { resolvedArgs: {}, varRefs: [], processes: [] } };
    expect(toolResultFromFile(current, 'ok')).toEqual(current);
  });
});
