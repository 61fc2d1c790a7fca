// The message box keeps one draft per chat (composer-draft.ts) and clears only what was sent
// (composer-send.tsx): switching chats brings each chat's text back, a new chat's first send
// carries on what was typed after it, and a message taken back from the queue fills an empty box.
import { describe, expect, it } from 'vitest';
import { createSignal } from 'solid-js';
import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { Composer } from '../../../renderer/src/chat/composer/composer.tsx';
import { NEW_CHAT_DRAFT } from '../../../renderer/src/chat/composer/composer-draft.ts';

const box = () => screen.getByTestId('composer') as HTMLTextAreaElement;
const type = (text: string) => fireEvent.input(box(), { target: { value: text } });

describe('the composer draft', () => {
  it('keeps each chat its own unsent text', () => {
    const [key, setKey] = createSignal('a');
    render(() => <Composer running={false} onSend={() => true} onAbort={() => {}} draftKey={key()} />);
    type('for chat a');
    setKey('b');
    expect(box().value).toBe('');
    type('for chat b');
    setKey('a');
    expect(box().value).toBe('for chat a');
    setKey('b');
    expect(box().value).toBe('for chat b');
  });

  it('a new chat becoming a session keeps what was typed after its first send', async () => {
    const [key, setKey] = createSignal(NEW_CHAT_DRAFT);
    let release!: (taken: boolean) => void;
    const sent: string[] = [];
    render(() => (
      <Composer
        running={false}
        onSend={(text) => {
          sent.push(text);
          return new Promise<boolean>((resolve) => (release = resolve));
        }}
        onAbort={() => {}}
        draftKey={key()}
      />
    ));
    type('first');
    fireEvent.keyDown(box(), { key: 'Enter' });
    type('first and more');
    setKey('s1');
    expect(box().value).toBe('first and more');
    release(true);
    await waitFor(() => expect(box().value).toBe(' and more'));
    expect(sent).toEqual(['first']);
  });

  it('a message taken back from the queue fills the box only when it is empty', () => {
    const [queued, setQueued] = createSignal([{ id: 'q1', text: 'queued one' }, { id: 'q2', text: 'queued two' }]);
    const unqueue = (id: string) => {
      const item = queued().find((q) => q.id === id);
      setQueued(queued().filter((q) => q.id !== id));
      return item?.text;
    };
    render(() => <Composer running onSend={() => true} onAbort={() => {}} queued={queued()} onUnqueue={unqueue} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel sending “queued one”' }));
    expect(box().value).toBe('queued one');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel sending “queued two”' }));
    expect(box().value).toBe('queued one');
    expect(screen.queryByTestId('queued')).toBeNull();
  });
});
