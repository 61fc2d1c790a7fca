import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@solidjs/testing-library';
import { createStore } from 'solid-js/store';
import { ToolCallBlock } from '../../../renderer/src/chat/tool-calls/tool-call-block.tsx';
import { commandLine } from '../../../renderer/src/chat/composer/command-line.ts';
import { slashQuery, suggestTools, varRefsIn } from '../../../renderer/src/chat/composer/slash-suggestions.ts';
import { globalSelection, togglePin, toggleTools } from '../../../renderer/src/chat/tool-calls/tool-selection.ts';
import { applyEvent, applySnapshot } from '../../../renderer/src/store/apply-event.ts';
import { emptyAppState, type ToolCallState } from '../../../renderer/src/store/app-state.ts';
import type { ToolExecuteResult, ToolGroupInfo, ToolInfo } from '../../../shared/tools.ts';

const info = (name: string, groupName: string, description = '', extra: Partial<ToolInfo> = {}): ToolInfo => ({
  name,
  modelName: name,
  groupName,
  description,
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  format: 'script',
  permission: { executionPolicy: 'ask-once', resultApprovalPolicy: 'never' },
  enabled: true,
  ...extra,
});

const result: ToolExecuteResult = {
  status: 'SUCCESS',
  finalText: 'echo: hi',
  formattedText: 'echo: hi',
  cacheVarResult: 'script_echo_c1_result',
  inspection: {
    resolvedArgs: { text: 'hi' },
    varRefs: [],
    processes: [{ command: '/usr/bin/node', args: ['/tools/my echo/script.js'], cwd: '/home/u', exitCode: 0, signal: null, stdout: 'echo: hi', stderr: '', timedOut: false, aborted: false, sandboxed: true, durationMs: 40 }],
    timings: { queuedMs: 1, approvalMs: 2500, runningMs: 42, formattingMs: 1, resultApprovalMs: 0 },
  },
};

function block(call: Partial<ToolCallState>, extra: Record<string, unknown> = {}) {
  const [state] = createStore<ToolCallState>({ callId: 'c1', toolName: 'script_echo', groupName: 'script', args: { text: 'hi' }, status: 'done', partial: '', reruns: [], ...call });
  const onRerun = vi.fn();
  render(() => <ToolCallBlock call={state} approvals={[]} onAnswer={() => {}} onCancel={() => {}} onOpenVariable={() => {}} onRerun={onRerun} {...extra} />);
  return { onRerun };
}

describe('ToolCallBlock: issue 14', () => {
  it('the badge is the running time; the approval wait is shown apart', () => {
    block({ result, startedAt: 0, finishedAt: 10_000 });
    expect(screen.getByTestId('tool-status')).toHaveTextContent('done · 42 ms');
    expect(screen.getByTestId('approval-wait')).toHaveTextContent('waited 2.5 s for approval');
  });

  it('Inspect shows the quoted command line, exit code and durations, each with Copy', () => {
    block({ result });
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }));
    expect(screen.getByTestId('inspect-command')).toHaveTextContent("/usr/bin/node '/tools/my echo/script.js'");
    expect(screen.getByTestId('inspect-exit')).toHaveTextContent(/0 · sandboxed · 40 ms/);
    expect(screen.getByTestId('inspect-durations')).toHaveTextContent('queued 1 ms · waiting for approval 2.5 s · running 42 ms · formatting 1 ms');
    expect(screen.getByRole('button', { name: 'Copy command line' })).toBeInTheDocument();
    expect(screen.getByTestId('inspect-variables')).toHaveTextContent('wrote script_echo_c1_result');
  });

  it('Inspect names the modules a warm Python run had preloaded', () => {
    const process = { ...result.inspection!.processes[0]!, command: '/usr/bin/python3', args: ['run_tool.py'], preloaded: ['numpy', 'requests'] };
    block({ result: { ...result, inspection: { ...result.inspection!, processes: [process] } } });
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }));
    expect(screen.getByTestId('inspect-exit')).toHaveTextContent(/0 · sandboxed · 40 ms · preloaded: numpy, requests$/);
  });

  it('Run again warns for a tool not marked read-only, not for a read-only one', () => {
    const { onRerun } = block({ result }, { tool: info('script_echo', 'script') });
    fireEvent.click(screen.getByRole('button', { name: 'Run again' }));
    expect(screen.getByTestId('rerun-warning')).toHaveTextContent('its first run already happened');
    fireEvent.click(screen.getByRole('button', { name: 'Run with the same arguments' }));
    expect(onRerun).toHaveBeenCalledWith(undefined);
  });

  it('no warning for a read-only tool', () => {
    block({ result }, { tool: info('lookup', 'x', '', { meta: { readOnly: true } }) });
    fireEvent.click(screen.getByRole('button', { name: 'Run again' }));
    expect(screen.queryByTestId('rerun-warning')).toBeNull();
  });

  it('a cancelled call says so and keeps its streamed lines', () => {
    block({ status: 'cancelled', partial: 'line 1\nline 2\n', result: { status: 'ERROR', cancelled: true, error: 'aborted', finalText: 'Error: aborted' } });
    expect(screen.getByTestId('tool-status')).toHaveTextContent(/^cancelled/);
    expect(screen.getByTestId('tool-partial')).toHaveTextContent('line 1 line 2');
  });
});

describe('applyEvent: reruns, cancelled, the chat selection', () => {
  it('a rerun is attached under its first call, without a row of its own; a cancelled result reads cancelled', () => {
    const state = emptyAppState();
    applySnapshot({ session: { id: 's', title: 't', createdAt: 0, updatedAt: 0, messageCount: 0 }, messages: [], pendingApprovals: [], running: false, toolSelection: { tools: ['a'], pinned: [] } }, state);
    expect(state.chats.s!.toolSelection).toEqual({ tools: ['a'], pinned: [] });
    applyEvent({ type: 'tool.started', sessionId: 's', callId: 'c1', toolName: 'echo', groupName: 'g', args: {} }, state);
    applyEvent({ type: 'tool.started', sessionId: 's', callId: 'c2', toolName: 'echo', groupName: 'g', args: {}, rerunOf: 'c1' }, state);
    const chat = state.chats.s!;
    expect(chat.rows.map((r) => r.id)).toEqual(['call:c1']);
    expect(chat.toolCalls.c1!.reruns).toEqual(['c2']);
    applyEvent({ type: 'tool.finished', sessionId: 's', callId: 'c2', toolName: 'echo', result: { status: 'ERROR', error: 'aborted', finalText: 'Error: aborted', cancelled: true } }, state);
    expect(chat.toolCalls.c2!.status).toBe('cancelled');
  });
});

describe('composer helpers', () => {
  const tools = [info('read_csv', 'files', 'Read a CSV file'), info('write_file', 'files', 'Write text to a file'), info('weather', 'web', 'Forecast for a city')];

  it('slashQuery: only a bare /word in progress', () => {
    expect(slashQuery('/rea')).toBe('rea');
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/read_csv {"a":1}')).toBeNull();
    expect(slashQuery('hello /x')).toBeNull();
  });

  it('suggestTools: prefix, then substring, then description words', () => {
    expect(suggestTools('rea', tools).map((t) => t.name)).toEqual(['read_csv']);
    expect(suggestTools('re', tools)[0]!.name).toBe('read_csv');
    expect(suggestTools('file', tools).map((t) => t.name)).toEqual(['write_file', 'read_csv']);
    expect(suggestTools('city', tools).map((t) => t.name)).toEqual(['weather']);
    expect(suggestTools('', tools)).toHaveLength(3);
  });

  it('varRefsIn: names and slices, each once', () => {
    expect(varRefsIn('a $VAR_REF{{x_result}} b $VAR_REF{{x_result:0:10}} $VAR_REF{{x_result}}')).toEqual([
      { ref: '$VAR_REF{{x_result}}', name: 'x_result', inner: 'x_result' },
      { ref: '$VAR_REF{{x_result:0:10}}', name: 'x_result', inner: 'x_result:0:10' },
    ]);
  });

  it('commandLine quotes only what needs it', () => {
    expect(commandLine('python3', ['-I', '/a b/run.py', "it's", ''])).toBe(`python3 -I '/a b/run.py' 'it'\\''s' ''`);
  });

  it('tool selection: the global switches as a start; toggling drops pins; pinning selects', () => {
    const groups: ToolGroupInfo[] = [
      { name: 'vars', enabled: false, builtin: true, tools: [info('ReadVar', 'vars'), info('WriteVar', 'vars')] },
      { name: 'files', enabled: true, builtin: false, tools: [info('read_csv', 'files'), info('write_file', 'files', '', { enabled: false })] },
      { name: 'web', enabled: false, builtin: false, tools: [info('weather', 'web')] },
    ];
    expect(globalSelection(groups)).toEqual({ tools: ['ReadVar', 'read_csv'], pinned: [] });
    const pinned = togglePin({ tools: [], pinned: [] }, 'weather', true);
    expect(pinned).toEqual({ tools: ['weather'], pinned: ['weather'] });
    expect(toggleTools(pinned, ['weather'], false)).toEqual({ tools: [], pinned: [] });
  });
});
