import { For, Show } from 'solid-js';
import type { AttachmentUpload } from '../../../../shared/api.ts';
import { FIND_TOOLS } from '../../../../shared/tool-selection.ts';
import type { SendState } from '../../store/create-app-store.ts';
import type { ComposerAttachments } from './composer-attachments.tsx';
import type { ComposerDraft } from './composer-draft.ts';

/** `/name …` (the runtime's slash-command shape, not a `/server:prompt`) naming no known tool. */
export function isUnknownToolCommand(text: string, known: string[] | undefined): boolean {
  const name = /^\/([A-Za-z_][\w.:-]*)(?:\s|$)/.exec(text.trim())?.[1];
  // `/toolset NAME` picks the chat's tool set: the runtime answers it, it is no tool.
  return !!name && !!known && !name.includes(':') && name !== FIND_TOOLS && name !== 'toolset' && !known.includes(name);
}

/** What sending reads from the composer's props (read reactively). */
export interface SendProps {
  disabled?: boolean | undefined;
  sendState?: SendState | undefined;
  /** Resolves true once the message was taken (the box is cleared then); false keeps it. */
  onSend: (text: string, attachments: AttachmentUpload[]) => Promise<boolean> | boolean | void;
  /** Every tool name the runtime knows (model names too): a `/name` outside them is a typo, kept in the box. */
  knownToolNames?: string[] | undefined;
  /** The queued messages wait for the user (an interrupted turn): Send, even with an empty box, sends them. */
  queueHeld?: boolean | undefined;
  onSendQueued?: (() => void) | undefined;
  onUnqueue?: ((id: string) => string | undefined) | undefined;
}

/**
 * Sending what the box holds, and taking a queued message back.
 * Contract: nothing is sent while disabled or while a send is on its way or waiting for the
 * connection; an empty box sends the held queue (an interrupted turn's), if any; a message naming
 * an unknown `$VAR_REF` is not sent (its chip says why). The box is cleared only once the runtime
 * took the message, and only of what was sent: text typed meanwhile and files added meanwhile stay;
 * a mistyped `/tool` (answered "No tool named …") stays to be fixed. `unqueue` puts a cancelled
 * message back into the box when the box is empty, so nothing typed is lost.
 */
export function createComposerSend(props: SendProps, draft: ComposerDraft, attachments: ComposerAttachments, unknownRefs: () => unknown[]) {
  const busy = () => props.sendState === 'sending' || props.sendState === 'waiting';
  const send = async () => {
    const value = draft.text();
    const files = attachments.files();
    if (props.disabled || busy()) return;
    if (!value.trim() && files.length === 0) {
      if (props.queueHeld) props.onSendQueued?.();
      return;
    }
    if (unknownRefs().length > 0) return;
    const taken = await props.onSend(value, files.map((a) => a.upload));
    if (taken === false) return;
    if (isUnknownToolCommand(value, props.knownToolNames)) return;
    if (draft.text().startsWith(value)) draft.setText(draft.text().slice(value.length));
    attachments.sent(files);
    draft.fit();
  };
  const unqueue = (id: string) => {
    const back = props.onUnqueue?.(id);
    if (back !== undefined && !draft.text().trim()) {
      draft.setText(back);
      draft.fit();
    }
    draft.focus();
  };
  return { busy, send, unqueue };
}

/** Messages sent during the running turn, each with a Cancel that takes it back. */
export function QueuedMessages(props: { queued?: { id: string; text: string }[] | undefined; held?: boolean | undefined; onCancel: (id: string) => void }) {
  return (
    <Show when={props.queued?.length}>
      <ul class="composer-notes small queued-list" aria-label="Waiting to be sent" data-testid="queued">
        <For each={props.queued}>
          {(item) => (
            <li class="row" data-testid="queued-message">
              <span class="grow queued-text">{item.text}</span>
              <span class="muted">{props.held ? 'waits for you: Send sends it now; after Continue or Retry it follows their answer' : 'will send after this turn'}</span>
              <button type="button" class="link small" aria-label={`Cancel sending “${item.text.slice(0, 40)}”`} onClick={() => props.onCancel(item.id)}>
                Cancel
              </button>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}
