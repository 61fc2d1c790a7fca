import { For, Show, createResource, createSignal } from 'solid-js';
import type { Attachment } from '../../../../shared/chat.ts';
import { ImageLightbox, imageSrc, type ShownImage } from '../../ui/image-lightbox.tsx';
import { formatSize } from './read-attachment.ts';

const KIND_LABEL = { image: 'Image', text: 'Text', pdf: 'PDF' } as const;

export type ChipItem = Pick<Attachment, 'name' | 'kind' | 'size'> &
  Partial<Pick<Attachment, 'variable' | 'truncated' | 'stored'>> & {
  /** The image itself, when the page holds it (a file picked in the composer). */
  preview?: ShownImage;
};

/** Contract: resolves with a stored image of the session, or rejects (the chip then shows no picture). */
export type LoadImage = (stored: string) => Promise<ShownImage>;

/** An image chip's picture; a click opens it large. */
function Thumbnail(props: { item: ChipItem; load?: LoadImage | undefined }) {
  const [loaded] = createResource(
    () => (props.item.preview ? null : props.item.stored && props.load ? props.item.stored : null),
    (stored) => props.load!(stored).catch(() => null),
  );
  const image = () => props.item.preview ?? loaded() ?? null;
  const [open, setOpen] = createSignal(false);
  return (
    <Show when={image() && imageSrc(image()!)}>
      {(src) => (
        <>
          <button type="button" class="chip-thumb" title="Open larger (zoom, copy, save)" onClick={() => setOpen(true)} data-testid="attachment-thumb">
            <img src={src()} alt={props.item.name} />
          </button>
          <Show when={open()}>
            <ImageLightbox image={image()!} name={props.item.name} onClose={() => setOpen(false)} />
          </Show>
        </>
      )}
    </Show>
  );
}

/** The files of a message as chips: a picture for images, else the kind; name, size; a remove button while composing. */
export function AttachmentChips(props: { items: ChipItem[]; onRemove?: (index: number) => void; onOpenVariable?: (name: string) => void; loadImage?: LoadImage }) {
  return (
    <Show when={props.items.length > 0}>
      <ul class="attachment-chips" aria-label="Attachments">
        <For each={props.items}>
          {(item, index) => (
            <li class="attachment-chip" data-testid="attachment-chip" title={item.truncated ? 'The model got the first part; the whole text is in a variable.' : item.name}>
              <Show when={item.kind === 'image' && (item.preview || (item.stored && props.loadImage))} fallback={<span class="chip-kind">{KIND_LABEL[item.kind]}</span>}>
                <Thumbnail item={item} load={props.loadImage} />
              </Show>
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
