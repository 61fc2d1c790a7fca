// What a new user ran into in Chromium: keyboard focus after an approval, sessions in a narrow
// window, a run form for a switched-off group, and a provider saved without a model.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { ExecutionApprovalCard } from '../../../renderer/src/approvals/execution-approval-card.tsx';
import { defaultSettings, type ProviderConfig, type Settings } from '../../../shared/settings.ts';
import type { ApprovalRequest } from '../../../shared/tools.ts';
import { mountApp } from './mount-app.tsx';
import { fakeTool } from './fake-api.ts';

const request = (id: string): ApprovalRequest => ({
  id,
  type: 'execution',
  sessionId: 's1',
  callId: `c-${id}`,
  toolName: 'write_file',
  groupName: 'files',
  args: { path: '/tmp/a.txt' },
  policy: 'ask-always',
});

describe('keyboard focus after answering an approval card', () => {
  it('goes to the next waiting card, then to the message box, never to the page', () => {
    const home = document.createElement('textarea');
    home.setAttribute('data-focus-home', '');
    document.body.append(home);
    // The page had focus (nothing focused) when the cards appeared, as after opening the app.
    (document.activeElement as HTMLElement | null)?.blur();
    render(() => (
      <>
        <ExecutionApprovalCard request={request('r1')} onAnswer={() => {}} autofocus />
        <ExecutionApprovalCard request={request('r2')} onAnswer={() => {}} />
      </>
    ));
    const [first, second] = screen.getAllByRole('button', { name: 'Approve once' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first!, { key: 'Escape' });
    expect(document.activeElement).toBe(second);
    fireEvent.click(second!);
    expect(document.activeElement).toBe(home);
    home.remove();
  });

  it('returns to the message box after a rejection typed in the reason box', () => {
    const home = document.createElement('textarea');
    home.setAttribute('data-focus-home', '');
    document.body.append(home);
    home.focus();
    render(() => <ExecutionApprovalCard request={request('r3')} onAnswer={() => {}} autofocus />);
    fireEvent.click(screen.getByRole('button', { name: 'Add reason…' }));
    const reason = screen.getByLabelText('Reason for rejecting');
    reason.focus();
    fireEvent.input(reason, { target: { value: 'not that file' } });
    fireEvent.keyDown(reason, { key: 'Enter' });
    expect(document.activeElement).toBe(home);
    home.remove();
  });
});

describe('narrow window', () => {
  it('has a Sessions button that opens the sidebar, and opening a session closes it', async () => {
    await mountApp({ listSessions: () => [{ id: 's1', title: 'First chat', createdAt: 1, updatedAt: 2, messageCount: 0 }, { id: 's3', title: 'Other chat', createdAt: 1, updatedAt: 1, messageCount: 0 }] });
    const toggle = screen.getByTestId('sessions-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', 'sessions-sidebar');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(document.querySelector('.layout')).toHaveClass('sessions-open');
    expect(document.activeElement).toBe(screen.getByTestId('session-search'));
    fireEvent.click(await screen.findByText('Other chat'));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'false'));
  });
});

describe('tools panel run form', () => {
  it('says a run is refused when the tool is on but its group is off, and where to switch it on', async () => {
    const tool = fakeTool('greet');
    await mountApp({ listTools: () => ({ groups: [{ name: 'custom', enabled: false, builtin: false, tools: [tool] }], diagnostics: [] }) });
    fireEvent.click(screen.getByTestId('tab-tools'));
    const item = (await screen.findAllByTestId('tool-item')).find((el) => el.dataset.tool === 'greet')!;
    fireEvent.click(item.querySelector('button.tool-open')!);
    const note = await within(item).findByTestId('run-refused-note');
    expect(note).toHaveTextContent('group demo is switched off');
    expect(note).toHaveTextContent('Settings → Tool groups');
  });
});

describe('provider editor', () => {
  const provider: ProviderConfig = { id: 'p1', name: 'Local', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: '' };

  async function openEditor() {
    let settings: Settings = { ...defaultSettings(), providers: [provider], activeProviderId: 'p1' };
    const fake = await mountApp({
      getSettings: () => settings,
      setSettings: (req: { patch: Partial<Settings> }) => (settings = { ...settings, ...req.patch }),
      listProviders: () => settings.providers.map((p) => ({ ...p, hasApiKey: false })),
      listModels: () => ['model-a', 'model-b'],
      testProvider: () => ({ ok: true, latencyMs: 7, models: ['model-a', 'model-b'], message: 'Local answered in 7 ms with 2 models.' }),
    });
    fireEvent.click(screen.getByTestId('tab-settings'));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    return { ...fake, editor: await screen.findByTestId('provider-editor'), saved: () => settings };
  }

  it('Load models fills an empty model with the first one the server lists, in the one Model field', async () => {
    const { editor } = await openEditor();
    fireEvent.click(within(editor).getByRole('button', { name: 'Load models' }));
    await waitFor(() => expect(within(editor).getByRole('combobox', { name: 'Model' })).toHaveValue('model-a'));
    // One control for one value: the loaded models are the field's own list, no select beside it.
    expect(within(editor).queryByRole('combobox', { name: 'Pick a model' })).toBeNull();
    expect(editor.querySelectorAll('select')).toHaveLength(0);
    const field = within(editor).getByRole('combobox', { name: 'Model' });
    expect(field).toHaveAttribute('aria-expanded', 'true');
    expect(within(editor).getAllByRole('option').map((o) => o.textContent)).toEqual(['model-a', 'model-b']);
  });

  it('the Model field: arrows and Enter pick a listed model, typing filters, any name can be typed, Esc closes only the list', async () => {
    const { editor } = await openEditor();
    fireEvent.click(within(editor).getByRole('button', { name: 'Load models' }));
    const field = within(editor).getByRole('combobox', { name: 'Model' });
    await waitFor(() => expect(field).toHaveAttribute('aria-expanded', 'true'));
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(field.getAttribute('aria-activedescendant')).toBe(within(editor).getByRole('option', { name: 'model-b' }).id);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(field).toHaveValue('model-b');
    expect(field).toHaveAttribute('aria-expanded', 'false');

    fireEvent.input(field, { target: { value: '-a' } });
    expect(within(editor).getAllByRole('option').map((o) => o.textContent)).toEqual(['model-a']);
    fireEvent.input(field, { target: { value: 'my-own-model' } });
    expect(within(editor).getByText('No listed model matches; the name as typed is used.')).toBeTruthy();
    expect(within(editor).getByTestId('model-not-listed').textContent).toContain('"my-own-model" is not among the models this server listed');
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(field).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('settings-panel')).toBeTruthy();
    fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
    await screen.findByTestId('provider-saved');
  });

  it('Test names the latency once, and Save says it saved', async () => {
    const { editor, saved } = await openEditor();
    fireEvent.click(within(editor).getByRole('button', { name: 'Test' }));
    await within(editor).findByText(/answered in 7 ms/);
    expect(editor.textContent!.match(/7 ms/g)).toHaveLength(1);
    fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
    await screen.findByTestId('provider-saved');
    expect(saved().providers[0]!.model).toBe('model-a');
  });
});
