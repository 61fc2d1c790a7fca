import { For, Show } from 'solid-js';
import type { Attachment } from '../../../shared/chat.ts';
import { formatSize } from './read-attachment.ts';

const KIND_LABEL = { image: 'Image', text: 'Text', pdf: 'PDF' } as const;

/** The files of a message as chips: kind, name, size; a remove button while composing. */
export function AttachmentChips(props: {
  items: Array<Pick<Attachment, 'name' | 'kind' | 'size' | 'variable' | 'truncated'>>;
  onRemove?: (index: number) => void;
  onOpenVariable?: (name: string) => void;
}) {
  return (
    <Show when={props.items.length > 0}>
      <ul class="attachment-chips" aria-label="Attachments">
        <For each={props.items}>
          {(item, index) => (
            <li class="attachment-chip" data-testid="attachment-chip" title={item.truncated ? 'The model got the first part; the whole text is in a variable.' : item.name}>
              <span class="chip-kind">{KIND_LABEL[item.kind]}</span>
              <span class="chip-name">{item.name}</span>
              <span class="muted small">{formatSize(item.size)}</span>
              <Show when={item.variable && props.onOpenVariable}>
                <button type="button" class="link small" onClick={() => props.onOpenVariable!(item.variable!)}>
                  ${item.variable}
                </button>
              </Show>
              <Show when={props.onRemove}>
                <button type="button" class="icon" aria-label={`Remove ${item.name}`} onClick={() => props.onRemove!(index())}>
                  ×
                </button>
              </Show>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}
