// Issue 25 §5: an error belongs to the chat it happened in (it does not follow the user into
// other chats and clears when that chat's next send is taken), and a message sent while the turn
// runs waits for it instead of being refused.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { mountApp } from './mount-app.tsx';

describe('errors and sends belong to their chat', () => {
  it('a refused send shows in its chat only, and the next accepted send there clears it', async () => {
    let refuse = true;
    const fake = await mountApp({
      listSessions: () => [
        { id: 's1', title: 'First chat', createdAt: 1, updatedAt: 2, messageCount: 0 },
        { id: 's2', title: 'Second chat', createdAt: 1, updatedAt: 1, messageCount: 0 },
      ],
      sendMessage: () => {
        if (refuse) throw new Error('The provider refused the request.');
        return { turnId: 't2' };
      },
    });
    const box = screen.getByTestId('composer') as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByTestId('error-toast')).textContent).toContain('The provider refused the request.');
    await fake.store.openSession('s2');
    await waitFor(() => expect(screen.queryByTestId('error-toast')).toBeNull());
    await fake.store.openSession('s1');
    await screen.findByTestId('error-toast');
    refuse = false;
    fireEvent.input(box, { target: { value: 'hello again' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(fake.calls.sendMessage).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByTestId('error-toast')).toBeNull());
  });

  it('while the turn runs, a send is queued (not sent, no error) and goes out when the turn ends', async () => {
    const fake = await mountApp();
    fake.emit({ type: 'session.turn', sessionId: 's1', turnId: 't1', state: 'started' });
    const box = screen.getByTestId('composer') as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: 'next question' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await screen.findByTestId('queued-message');
    expect(fake.calls.sendMessage).not.toHaveBeenCalled();
    expect(screen.queryByTestId('error-toast')).toBeNull();
    fake.emit({ type: 'session.turn', sessionId: 's1', turnId: 't1', state: 'finished', stopReason: 'stop' });
    await waitFor(() => expect(fake.calls.sendMessage).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 's1', text: 'next question' })));
    await waitFor(() => expect(screen.queryByTestId('queued-message')).toBeNull());
  });
});
