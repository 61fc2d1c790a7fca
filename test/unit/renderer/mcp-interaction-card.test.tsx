// MCP elicitation and sampling cards: fields as asked, required/number checks before sending,
// URL mode only opens after the user agrees, sampling shows the messages first; a card never takes
// the keyboard from someone typing. The reducer adds and drops them per tool call.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@solidjs/testing-library';
import { McpInteractionCard } from '../../../renderer/src/approvals/mcp-interaction-card.tsx';
import { applyEvent, applySnapshot } from '../../../renderer/src/store/apply-event.ts';
import { emptyAppState } from '../../../renderer/src/store/app-state.ts';
import type { McpInteractionRequest } from '../../../shared/mcp.ts';

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

const form: McpInteractionRequest = {
  id: 'a1',
  sessionId: 's',
  callId: 'c1',
  server: 'ev',
  kind: 'form',
  message: 'Tell me about you',
  fields: [
    { name: 'name', title: 'Full name', type: 'string', required: true },
    { name: 'age', type: 'integer', required: false, minimum: 0 },
    { name: 'check', type: 'boolean', required: false },
    { name: 'color', type: 'string', required: false, options: [{ value: 'r', label: 'Red' }, { value: 'g', label: 'Green' }], default: 'g' },
  ],
};

describe('MCP form card', () => {
  it('renders the fields, checks required and whole numbers, then sends typed values', () => {
    const onAnswer = vi.fn();
    render(() => <McpInteractionCard request={form} onAnswer={onAnswer} />);
    expect(screen.getByText('ev asks for information')).toBeTruthy();
    const field = (name: string) => document.querySelector(`[data-field="${name}"]`) as HTMLInputElement;
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByTestId('mcp-ask-problem').textContent).toBe('Full name is required.');
    fireEvent.input(field('name'), { target: { value: 'Ada' } });
    fireEvent.input(field('age'), { target: { value: '3.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByTestId('mcp-ask-problem').textContent).toMatch(/whole number/);
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.input(field('age'), { target: { value: '36' } });
    fireEvent.click(field('check'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onAnswer).toHaveBeenCalledWith({ action: 'accept', content: { name: 'Ada', age: 36, check: true, color: 'g' } });
  });

  it('Decline sends a decline; the card does not take focus from the message box', () => {
    const box = document.createElement('textarea');
    document.body.append(box);
    box.focus();
    const onAnswer = vi.fn();
    render(() => <McpInteractionCard request={form} onAnswer={onAnswer} />);
    expect(document.activeElement).toBe(box);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(onAnswer).toHaveBeenCalledWith({ action: 'decline' });
  });
});

describe('MCP URL and sampling cards', () => {
  it('URL mode shows where it goes and answers only on a click; a second click sends nothing more', () => {
    const onAnswer = vi.fn();
    render(() => <McpInteractionCard request={{ id: 'u', sessionId: 's', server: 'pay', kind: 'url', message: 'Authorize the payment', url: 'https://pay.example/authorize?x=1' }} onAnswer={onAnswer} />);
    expect(screen.getByTestId('mcp-ask-url').textContent).toBe('https://pay.example/authorize?x=1');
    fireEvent.click(screen.getByRole('button', { name: 'Open in browser' }));
    fireEvent.click(screen.getByRole('button', { name: 'Open in browser' }));
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith({ action: 'accept' });
  });

  it('sampling shows the system prompt and messages before anything is sent', () => {
    const onAnswer = vi.fn();
    render(() => (
      <McpInteractionCard
        request={{ id: 'x', sessionId: 's', server: 'ev', kind: 'sampling', systemPrompt: 'Be brief', messages: [{ role: 'user', text: 'Summarise the repo' }], maxTokens: 50 }}
        onAnswer={onAnswer}
        model="gpt-test"
      />
    ));
    expect(screen.getByTestId('mcp-ask-system').textContent).toBe('Be brief');
    expect(screen.getByText('Summarise the repo')).toBeTruthy();
    expect(document.body.textContent).toContain('at most 50 tokens');
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect(onAnswer).toHaveBeenCalledWith({ action: 'decline' });
  });
});

describe('reducer', () => {
  it('adds a card on request, drops it on resolve, and restores pending ones from a snapshot', () => {
    const state = emptyAppState();
    applySnapshot({ session: { id: 's', title: 't', createdAt: 1, updatedAt: 1, messageCount: 0 }, messages: [], pendingApprovals: [], running: true, pendingMcpInteractions: [form] }, state);
    expect(state.chats.s!.mcpAsks.map((r) => r.id)).toEqual(['a1']);
    applyEvent({ type: 'mcp.interaction.requested', sessionId: 's', request: form }, state);
    expect(state.chats.s!.mcpAsks).toHaveLength(1);
    applyEvent({ type: 'mcp.interaction.resolved', sessionId: 's', requestId: 'a1', answer: null }, state);
    expect(state.chats.s!.mcpAsks).toEqual([]);
  });
});
