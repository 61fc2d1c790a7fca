import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { defaultSettings } from '../../../shared/settings.ts';
import { mountApp } from './mount-app.tsx';
import { fakeTool } from './fake-api.ts';

describe('App', () => {
  it('explains how to add a provider on first run and proposes a detected local server', async () => {
    await mountApp({
      detectLocalProviders: () => [
        { provider: { id: 'ollama', name: 'Ollama', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: '' }, models: ['llama3'] },
      ],
    });
    expect(screen.getByTestId('first-run')).toHaveTextContent('No model provider yet');
    await waitFor(() => expect(screen.getByTestId('first-run')).toHaveTextContent('Ollama at http://127.0.0.1:11434/v1'));
  });

  it('sends with Enter, keeps Shift+Enter for new lines, aborts with Escape while running', async () => {
    const { calls, emit } = await mountApp({ getSettings: () => ({ ...defaultSettings(), providers: [{ id: 'p', name: 'p', kind: 'openai-compatible', baseURL: 'http://x', model: 'm' }], activeProviderId: 'p' }) });
    expect(screen.queryByTestId('first-run')).toBeNull();
    const box = screen.getByTestId('composer') as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(calls.sendMessage).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(calls.sendMessage).toHaveBeenCalledWith({ sessionId: 's1', text: 'hello', messageId: expect.stringMatching(/^c[a-z0-9]+$/) }));
    // Cleared once the runtime took the message.
    await waitFor(() => expect(box.value).toBe(''));

    emit({ type: 'session.turn', sessionId: 's1', turnId: 't1', state: 'started' });
    await waitFor(() => expect(screen.getByTestId('abort')).toBeInTheDocument());
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(calls.abort).toHaveBeenCalledWith({ sessionId: 's1' }));
  });

  it('streams into the streaming message only: finished rows keep their DOM', async () => {
    const { emit } = await mountApp();
    emit({ type: 'session.message', sessionId: 's1', message: { role: 'assistant', id: 'a0', createdAt: 1, content: 'Finished **answer**' } });
    const finished = await screen.findByText('answer');
    emit({ type: 'session.delta', sessionId: 's1', messageId: 'a1', text: 'Stream' });
    for (const piece of ['ing', ' text', ' <img src=x onerror="window.__xss=1">']) emit({ type: 'session.delta', sessionId: 's1', messageId: 'a1', text: piece });
    await waitFor(() => expect(screen.getAllByTestId('assistant-message')[1]).toHaveTextContent('Streaming text'));
    // The finished message's nodes were neither replaced nor re-rendered.
    expect(screen.getByText('answer')).toBe(finished);
    expect(document.querySelector('img')).toBeNull();
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('shows approval cards inline, answers them in any order, and drops them on abort', async () => {
    const { emit, calls } = await mountApp();
    const request = (id: string, callId: string) => ({
      id,
      type: 'execution' as const,
      sessionId: 's1',
      callId,
      toolName: 'echo',
      groupName: 'demo',
      args: { text: id },
      policy: 'ask-once' as const,
    });
    emit({ type: 'approval.requested', sessionId: 's1', request: request('r1', 'c1') });
    emit({ type: 'approval.requested', sessionId: 's1', request: request('r2', 'c2') });
    emit({ type: 'approval.requested', sessionId: 's1', request: request('r3', 'c3') });
    await waitFor(() => expect(screen.getAllByTestId('execution-approval')).toHaveLength(3));
    const second = screen.getAllByTestId('execution-approval')[1]!;
    fireEvent.click(second.querySelector('button.primary')!);
    await waitFor(() => expect(calls.answerApproval).toHaveBeenCalledWith({ sessionId: 's1', requestId: 'r2', decision: { decision: 'once' } }));
    emit({ type: 'approval.resolved', sessionId: 's1', requestId: 'r2', decision: { decision: 'once' } });
    await waitFor(() => expect(screen.getAllByTestId('execution-approval')).toHaveLength(2));
    emit({ type: 'approval.resolved', sessionId: 's1', requestId: 'r1', decision: null });
    emit({ type: 'approval.resolved', sessionId: 's1', requestId: 'r3', decision: null });
    await waitFor(() => expect(screen.queryAllByTestId('execution-approval')).toHaveLength(0));
  });

  it('Ctrl+K focuses the session search; the truncated badge opens the variable in the Variables panel', async () => {
    const { emit, calls } = await mountApp({
      listVariables: () => [{ name: 'big_c1_result', type: 'ToolCallResult', tags: [], size: 50_000, createdAt: 1, updatedAt: 1, accessedAt: 1 }],
      readVariable: (req: { name: string; start: number }) => ({
        variable: { name: req.name, type: 'ToolCallResult', tags: [], size: 50_000, createdAt: 1, updatedAt: 1, accessedAt: 1 },
        value: 'y'.repeat(20_000),
        start: req.start ?? 0,
        total: 50_000,
      }),
    });
    fireEvent.keyDown(document, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByTestId('session-search'));

    emit({ type: 'tool.finished', sessionId: 's1', callId: 'c1', toolName: 'big', result: { status: 'SUCCESS', formattedText: 'x', finalText: 'x', isTruncated: true, cacheVarResult: 'big_c1_result' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Open full result' }));
    const viewer = await screen.findByTestId('variable-viewer');
    expect(viewer).toHaveTextContent('$VAR_REF{{big_c1_result}}');
    await waitFor(() => expect(viewer).toHaveTextContent('Page 1 of 3'));
    fireEvent.click(screen.getByRole('button', { name: 'Next ›' }));
    await waitFor(() => expect(calls.readVariable).toHaveBeenLastCalledWith({ sessionId: 's1', name: 'big_c1_result', start: 20_000, length: 20_000 }));

    fireEvent.click(screen.getByTestId('insert-var-ref'));
    expect((screen.getByTestId('composer') as HTMLTextAreaElement).value).toBe('$VAR_REF{{big_c1_result}}');
  });

  it('toggles a tool group through the API and reflects tools.changed', async () => {
    const group = (enabled: boolean) => ({ name: 'demo', enabled, builtin: false, tools: [] });
    const { emit, calls } = await mountApp({
      listTools: () => ({ groups: [group(false)], diagnostics: [] }),
      setGroupEnabled: (req: { enabled: boolean }) => ({ groups: [group(req.enabled)], diagnostics: [] }),
    });
    fireEvent.click(screen.getByTestId('tab-settings'));
    const toggle = (await screen.findByTestId('group-toggle-demo')) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() => expect(calls.setGroupEnabled).toHaveBeenCalledWith({ group: 'demo', enabled: true }));
    await waitFor(() => expect((screen.getByTestId('group-toggle-demo') as HTMLInputElement).checked).toBe(true));
    emit({ type: 'tools.changed', tools: { groups: [group(false)], diagnostics: [] } });
    await waitFor(() => expect((screen.getByTestId('group-toggle-demo') as HTMLInputElement).checked).toBe(false));
  });

  it('saves a per-tool policy override into settings.permissionOverrides', async () => {
    const tool = fakeTool('echo');
    const { calls, emit } = await mountApp({
      listTools: () => ({ groups: [{ name: 'demo', enabled: true, builtin: false, tools: [tool] }], diagnostics: [] }),
      setSettings: (req: { patch: object }) => ({ ...defaultSettings(), ...req.patch }),
    });
    fireEvent.click(screen.getByTestId('tab-settings'));
    fireEvent.click(await screen.findByRole('button', { name: 'Tools & policies' }));
    const select = screen.getByLabelText('Execution policy for echo') as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(select.options[0]!.textContent).toBe('ask-once (default)');
    fireEvent.change(select, { target: { value: 'ask-always' } });
    await waitFor(() => expect(calls.setSettings).toHaveBeenCalledWith({ patch: { permissionOverrides: { echo: { executionPolicy: 'ask-always' } } } }));
    await waitFor(() => expect((screen.getByLabelText('Execution policy for echo') as HTMLSelectElement).value).toBe('ask-always'));
    // The runtime then reports the effective policy: the user's override is never called "(default)" (issue 25 §8).
    emit({ type: 'tools.changed', tools: { groups: [{ name: 'demo', enabled: true, builtin: false, tools: [fakeTool('echo', { executionPolicy: 'ask-always', resultApprovalPolicy: 'never' })] }], diagnostics: [] } });
    await waitFor(() => expect((screen.getByLabelText('Execution policy for echo') as HTMLSelectElement).options[0]!.textContent).toBe("the tool's default"));
    expect([...(screen.getByLabelText('Execution policy for echo') as HTMLSelectElement).options].map((o) => o.textContent)).not.toContain('ask-always (default)');
    fireEvent.change(screen.getByLabelText('Result approval for echo'), { target: { value: 'always' } });
    await waitFor(() =>
      expect(calls.setSettings).toHaveBeenLastCalledWith({ patch: { permissionOverrides: { echo: { executionPolicy: 'ask-always', resultApprovalPolicy: 'always' } } } }),
    );
  });

  it('shows the sandbox warning above the chat, with no way to dismiss it, until its cause is gone', async () => {
    const status = (warning?: string) => ({ mode: 'auto', kind: warning ? 'none' : 'bwrap', available: !warning, detail: '', perTool: {}, limits: { enforced: false }, ...(warning ? { warning } : {}) });
    let warning: string | undefined = 'Tools run without a sandbox, with your full user rights. bwrap was not found.';
    const { emit } = await mountApp({
      appInfo: () => ({ version: '0', browserMode: true, platform: 'linux', home: '/tmp/x', sandbox: status(warning), secrets: { backend: 'keyring' } }),
    });
    const banner = await screen.findByTestId('sandbox-banner');
    expect(banner).toHaveTextContent('Tools run without a sandbox');
    expect(banner.querySelector('[aria-label="Dismiss"], [aria-label="Close"]')).toBeNull();
    // Still there with a side panel open and after the chat changes.
    fireEvent.click(screen.getByTestId('tab-tools'));
    emit({ type: 'session.message', sessionId: 's1', message: { role: 'user', id: 'u1', createdAt: 1, content: 'hi' } });
    expect(screen.getByTestId('sandbox-banner')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sandbox settings' }));
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();

    // Settings changed and the warning is gone (e.g. mode changed, bwrap installed): so is the banner.
    warning = undefined;
    emit({ type: 'settings.changed', settings: { ...defaultSettings(), sandbox: { ...defaultSettings().sandbox, mode: 'required' } } });
    await waitFor(() => expect(screen.queryByTestId('sandbox-banner')).toBeNull());
  });

  it('shows no sandbox banner when the sandbox works', async () => {
    const { calls } = await mountApp();
    await waitFor(() => expect(calls.appInfo).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('sandbox-banner')).toBeNull();
  });

  it("the tool call's Cancel stops that call only, not the turn", async () => {
    const { emit, calls } = await mountApp();
    emit({ type: 'session.turn', sessionId: 's1', turnId: 't1', state: 'started' });
    emit({ type: 'session.message', sessionId: 's1', message: { role: 'assistant', id: 'a1', createdAt: 1, content: '', toolCalls: [{ id: 'c7', name: 'slow', args: {} }] } });
    emit({ type: 'tool.started', sessionId: 's1', callId: 'c7', toolName: 'slow', groupName: 'demo', args: {} });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(calls.cancelToolCall).toHaveBeenCalledWith({ sessionId: 's1', callId: 'c7' }));
    expect(calls.abort).not.toHaveBeenCalled();
  });
});
