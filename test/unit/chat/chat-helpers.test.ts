import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/chat.ts';
import { parseSlashCommand } from '../../../electron/runtime/chat/commands/slash-command.ts';
import { titleFromMessage } from '../../../electron/runtime/chat/titles/title-from-message.ts';
import { MISSING_RESULT_TEXT, toLlmMessages } from '../../../electron/runtime/chat/turn/to-llm-messages.ts';
import { readSessionFile, readSessionInfo, SessionFile } from '../../../electron/runtime/chat/persistence/session-file.ts';
import { isValidSessionId, newSessionId } from '../../../electron/runtime/chat/persistence/session-id.ts';

const at = 1;
const result = { status: 'SUCCESS' as const, finalText: 'r' };

describe('slash commands', () => {
  it('parses /name, /name {json} and reports bad arguments', () => {
    expect(parseSlashCommand('/ReadVar')).toEqual({ ok: true, name: 'ReadVar', args: {} });
    expect(parseSlashCommand('  /echo {"text": "a b"}  ')).toEqual({ ok: true, name: 'echo', args: { text: 'a b' } });
    expect(parseSlashCommand('/echo\n{"x": 1}')).toEqual({ ok: true, name: 'echo', args: { x: 1 } });
    expect(parseSlashCommand('/echo [1]')).toMatchObject({ ok: false, error: expect.stringMatching(/must be a JSON object/) });
    expect(parseSlashCommand('/echo {bad')).toMatchObject({ ok: false, error: expect.stringMatching(/not valid JSON/) });
    expect(parseSlashCommand('hello /echo')).toBeNull();
    expect(parseSlashCommand('/ not a command')).toBeNull();
  });
});

describe('titles', () => {
  it('takes the first non-empty line, collapses space, cuts at a word', () => {
    expect(titleFromMessage('\n  Plan   my trip \nsecond line')).toBe('Plan my trip');
    expect(titleFromMessage('   ')).toBe('New chat');
    const long = titleFromMessage('word '.repeat(30));
    expect(long.endsWith('…')).toBe(true);
    expect(Array.from(long).length).toBeLessThanOrEqual(61);
    expect(titleFromMessage('😀'.repeat(100))).toBe(`${'😀'.repeat(60)}…`);
  });
});

describe('history → model messages', () => {
  it('maps roles, keeps raw arguments, skips empty steps', () => {
    const history: ChatMessage[] = [
      { id: '1', createdAt: at, role: 'user', content: 'hi' },
      { id: '2', createdAt: at, role: 'assistant', content: '', reasoning: 'x', toolCalls: [{ id: 'c1', name: 'echo', args: {}, rawArguments: '{"a":' }] },
      { id: '3', createdAt: at, role: 'tool', callId: 'c1', toolName: 'echo', content: 'bad json', result },
      { id: '4', createdAt: at, role: 'assistant', content: '', stopReason: 'error', error: { name: 'e', message: 'm' } },
      { id: '5', createdAt: at, role: 'assistant', content: 'done' },
    ];
    expect(toLlmMessages('sys', history)).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"a":' }] },
      { role: 'tool', toolCallId: 'c1', content: 'bad json' },
      { role: 'assistant', content: 'done' },
    ]);
  });

  it('gives hand-run tools a synthetic call and fills results missing after an abort', () => {
    const history: ChatMessage[] = [
      { id: '1', createdAt: at, role: 'user', content: '/echo {"t":1}' },
      { id: '2', createdAt: at, role: 'tool', callId: 'h1', toolName: 'echo', args: { t: 1 }, content: 'one', result },
      { id: '3', createdAt: at, role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'x', args: {} }, { id: 'b', name: 'y', args: {} }] },
      { id: '4', createdAt: at, role: 'tool', callId: 'a', toolName: 'x', content: 'A', result },
      { id: '5', createdAt: at, role: 'user', content: 'next' },
    ];
    expect(toLlmMessages('', history)).toEqual([
      { role: 'user', content: '/echo {"t":1}' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'h1', name: 'echo', arguments: '{"t":1}' }] },
      { role: 'tool', toolCallId: 'h1', content: 'one' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'a', name: 'x', arguments: '{}' }, { id: 'b', name: 'y', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'a', content: 'A' },
      { role: 'tool', toolCallId: 'b', content: MISSING_RESULT_TEXT },
      { role: 'user', content: 'next' },
    ]);
  });
});

describe('tool images → model messages', () => {
  const withImage = { ...result, images: [{ mimeType: 'image/png', size: 3, stored: 'tool-a-image-1.png' }] };
  const history: ChatMessage[] = [
    { id: '1', createdAt: at, role: 'user', content: 'look' },
    { id: '2', createdAt: at, role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'shot', args: {} }, { id: 'b', name: 'echo', args: {} }, { id: 'c', name: 'shot', args: {} }] },
    { id: '3', createdAt: at, role: 'tool', callId: 'a', toolName: 'shot', content: '[image image/png, 1 KB]', result: withImage },
    { id: '4', createdAt: at, role: 'tool', callId: 'b', toolName: 'echo', content: 'B', result },
    { id: '5', createdAt: at, role: 'assistant', content: 'seen' },
  ];
  const parts = () => [{ type: 'image' as const, mediaType: 'image/png', data: 'AAA' }];

  it('follow every tool message of the step as one user message naming the call (the missing result filled first)', () => {
    const out = toLlmMessages('', history, undefined, parts);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'user', 'assistant']);
    expect(out[4]).toEqual({ role: 'tool', toolCallId: 'c', content: MISSING_RESULT_TEXT });
    expect(out[5]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'The image below is the output of the tool call a (shot), sent here because tool results carry only text.' }, { type: 'image', mediaType: 'image/png', data: 'AAA' }],
    });
  });

  it('without the image callback (a model not known to take images) the tool text alone goes', () => {
    const out = toLlmMessages('', history);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    expect(JSON.stringify(out)).not.toContain('image_url');
  });
});

describe('session files', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'td-'));

  it('ids are safe file names', () => {
    expect(isValidSessionId(newSessionId())).toBe(true);
    for (const bad of ['', '../x', 'a/b', '.hidden', 'x'.repeat(65)]) expect(isValidSessionId(bad)).toBe(false);
  });

  it('replays messages, titles and variable changes in order', () => {
    const d = dir();
    const file = SessionFile.create(d, 's1', 'New chat', 100);
    const v = (name: string, value: string) => ({ name, value, type: 'USER_ADD' as const, tags: [], size: value.length, createdAt: 1, updatedAt: 1, accessedAt: 1 });
    file.append({ t: 'message', at: 200, message: { id: 'm', createdAt: 200, role: 'user', content: 'hi' } });
    file.append({ t: 'title', at: 300, title: 'Renamed' });
    file.append({ t: 'var', at: 301, variable: v('a', '1') });
    file.append({ t: 'var', at: 302, variable: v('b', '2') });
    file.append({ t: 'var', at: 303, variable: v('a', '3') });
    file.append({ t: 'var-remove', at: 304, name: 'b' });
    file.append({ t: 'approval-memory', at: 305, data: { version: 1, entries: [] } });
    const state = readSessionFile(file.log, 's1');
    expect(state).toMatchObject({ title: 'Renamed', createdAt: 100, updatedAt: 305, warnings: [] });
    expect(state.messages).toHaveLength(1);
    expect(state.variables.map((x) => [x.name, x.value])).toEqual([['a', '3']]);
    expect(file.info).toMatchObject({ title: 'Renamed', messageCount: 1, updatedAt: 305 });
    expect(JSON.parse(readFileSync(file.metaFile, 'utf8'))).toMatchObject({ title: 'Renamed', messageCount: 1 });
  });

  it('skips a bad middle line and cuts a torn tail, warning about both', () => {
    const d = dir();
    const file = SessionFile.create(d, 's2', 'T', 1);
    appendFileSync(file.log, 'garbage line\n');
    file.append({ t: 'message', at: 2, message: { id: 'm', createdAt: 2, role: 'user', content: 'kept' } });
    appendFileSync(file.log, '{"t":"message","at":3,"mess');
    const { state, file: reopened } = SessionFile.open(d, 's2');
    expect(state.messages.map((m) => m.content)).toEqual(['kept']);
    expect(state.warnings).toHaveLength(2);
    expect(state.warnings[0]).toMatch(/s2\.jsonl:2: skipped an unreadable line/);
    expect(state.warnings[1]).toMatch(/last line was cut off/);
    expect(readFileSync(reopened.log, 'utf8').endsWith('}\n')).toBe(true);
  });

  it('listing a session with a torn tail leaves the file alone, so opening it still warns', () => {
    const d = dir();
    const file = SessionFile.create(d, 's4', 'T', 1);
    file.append({ t: 'message', at: 2, message: { id: 'm', createdAt: 2, role: 'user', content: 'kept' } });
    appendFileSync(file.log, '{"t":"message","at":3,"mess');
    // The crash left the meta file older than the log: the summary is rebuilt from the log.
    const before = readFileSync(file.log, 'utf8');
    writeFileSync(file.metaFile, '{}');
    expect(readSessionInfo(d, 's4')).toMatchObject({ title: 'T', messageCount: 1 });
    expect(readFileSync(file.log, 'utf8')).toBe(before);
    const { state } = SessionFile.open(d, 's4');
    expect(state.warnings).toEqual([expect.stringMatching(/s4\.jsonl: the last line was cut off/)]);
  });

  it('refuses to create over an existing session and to open a missing one', () => {
    const d = dir();
    SessionFile.create(d, 's3', 'T');
    expect(() => SessionFile.create(d, 's3', 'T')).toThrow(/already exists/);
    expect(() => SessionFile.open(d, 'missing')).toThrow(/No session/);
    writeFileSync(join(d, 'empty.jsonl'), '');
    expect(SessionFile.open(d, 'empty').state.messages).toEqual([]);
  });
});

describe('session file robustness', () => {
  it('writes tool data JSON cannot hold (BigInt, cycles) as text instead of failing', async () => {
    const { toJsonLine } = await import('../../../electron/runtime/chat/persistence/session-file.ts');
    const data: Record<string, unknown> = { n: 10n, shared: { x: 1 } };
    data.self = data;
    data.again = data.shared;
    const line = toJsonLine({ t: 'message', at: 1, message: { id: 'm', createdAt: 1, role: 'tool', callId: 'c', toolName: 't', content: '', result: { status: 'SUCCESS', data, finalText: '' } } });
    expect(JSON.parse(line).message.result.data).toEqual({ n: '10', shared: { x: 1 }, self: '[Circular]', again: { x: 1 } });
  });
});
