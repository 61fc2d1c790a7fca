import { createEffect, createSignal, on } from 'solid-js';
import type { ComposerAttachments } from './composer-attachments.tsx';

/** The draft key of a chat that has no session yet. */
export const NEW_CHAT_DRAFT = 'draft';

/**
 * The text of the message box, one draft per chat.
 * Contract: `setText` writes the signal and the textarea together; `typed` is for the textarea's own
 * input (the element already holds the value). Neither fits the height: callers call `fit` where
 * the box may have grown or shrunk. When `draftKey` changes, the leaving chat's text and files are
 * kept and the coming chat's restored (empty if it has none); a new chat that became a session on
 * its first send keeps what was typed after that send. Notes about refused files are cleared then.
 */
export function createComposerDraft(draftKey: () => string | undefined, attachments: ComposerAttachments) {
  const [text, setSignal] = createSignal('');
  let area!: HTMLTextAreaElement;
  const setText = (value: string) => {
    setSignal(value);
    area.value = value;
  };
  const fit = () => {
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, 240)}px`;
  };
  const drafts = new Map<string, { text: string; files: ReturnType<ComposerAttachments['files']> }>();
  createEffect(
    on(draftKey, (key, previous) => {
      if (previous === undefined || key === previous) return;
      const current = { text: text(), files: attachments.files() };
      drafts.set(previous, current);
      const next = drafts.get(key ?? '') ?? (previous === NEW_CHAT_DRAFT ? current : { text: '', files: [] });
      drafts.delete(key ?? '');
      if (previous === NEW_CHAT_DRAFT) drafts.delete(previous);
      setText(next.text);
      attachments.restore(next.files);
      fit();
    }),
  );
  return {
    text,
    setText,
    typed: setSignal,
    fit,
    focus: () => area.focus(),
    /** The textarea's `ref`. */
    bind: (el: HTMLTextAreaElement) => {
      area = el;
    },
  };
}

export type ComposerDraft = ReturnType<typeof createComposerDraft>;
