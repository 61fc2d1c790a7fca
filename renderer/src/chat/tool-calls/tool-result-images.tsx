import { For, Show, createResource, createSignal } from 'solid-js';
import type { ToolExecuteResult } from '../../../../shared/tools.ts';
import { ImageLightbox, imageSrc } from '../../ui/image-lightbox.tsx';

interface ResultImage {
  mimeType: string;
  data: string;
}

/** Loads a stored image of the session (the API's readToolImage). */
export type LoadToolImage = (stored: string) => Promise<ResultImage>;

/** Images in a result's data (sessions written before images were kept as files: `data.images`). */
export function resultImages(data: unknown): ResultImage[] {
  const images = (data as { images?: unknown } | null | undefined)?.images;
  if (!Array.isArray(images)) return [];
  return images.filter((i): i is ResultImage => !!i && typeof i.mimeType === 'string' && typeof i.data === 'string' && imageSrc(i) !== null);
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg' };
/** The file name Save offers: "TOOL-image-N.png". */
const fileName = (alt: string, mimeType: string) => `${alt.replace(/ \(.*\)$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').toLowerCase()}.${EXTENSIONS[mimeType.toLowerCase()] ?? mimeType.split('/')[1]!.toLowerCase()}`;

/** The image in the block; a click opens it large (zoom, copy, save). */
function ImageView(props: { image: ResultImage; alt: string }) {
  const [open, setOpen] = createSignal(false);
  return (
    <Show when={imageSrc(props.image)}>
      {(src) => (
        <>
          <button type="button" class="tool-image-open" title="Open larger (zoom, copy, save)" onClick={() => setOpen(true)} data-testid="tool-image-open">
            <img class="tool-image" src={src()} alt={props.alt} style={{ 'max-width': '100%', 'max-height': '320px' }} />
          </button>
          <Show when={open()}>
            <ImageLightbox image={props.image} name={fileName(props.alt, props.image.mimeType)} onClose={() => setOpen(false)} />
          </Show>
        </>
      )}
    </Show>
  );
}

/** One image the session kept as a file, fetched when shown. */
function StoredImage(props: { stored: string; mimeType: string; alt: string; load: LoadToolImage }) {
  const [image] = createResource(() => props.stored, (stored) => props.load(stored));
  return (
    <Show when={!image.error} fallback={<span class="small muted">{props.alt}: not available ({(image.error as Error)?.message ?? 'unknown error'})</span>}>
      <Show when={image()}>{(loaded) => <ImageView image={loaded()} alt={props.alt} />}</Show>
    </Show>
  );
}

/** The images of a tool result, shown in its tool-call block (issue 12: MCP image content), with a note for any not kept. */
export function ToolResultImages(props: { result: Pick<ToolExecuteResult, 'data' | 'images'>; toolName: string; load?: LoadToolImage }) {
  const kept = () => (props.result.images ?? []).map((image, index) => ({ image, alt: `Image ${index + 1} from ${props.toolName} (${image.mimeType})` }));
  const legacy = () => (props.result.images?.length ? [] : resultImages(props.result.data));
  const notes = () => kept().filter((k) => k.image.note);
  return (
    <>
      <Show when={legacy().length > 0 || kept().some((k) => k.image.stored || k.image.data)}>
        <div class="row tool-images" data-testid="tool-images">
          <For each={legacy()}>{(image, i) => <ImageView image={image} alt={`Image ${i() + 1} from ${props.toolName} (${image.mimeType})`} />}</For>
          <For each={kept()}>
            {(k) =>
              k.image.data ? (
                <ImageView image={{ mimeType: k.image.mimeType, data: k.image.data }} alt={k.alt} />
              ) : k.image.stored && props.load ? (
                <StoredImage stored={k.image.stored} mimeType={k.image.mimeType} alt={k.alt} load={props.load} />
              ) : null
            }
          </For>
        </div>
      </Show>
      <Show when={notes().length > 0}>
        <ul class="small muted tool-image-notes" data-testid="tool-image-notes">
          <For each={notes()}>{(k) => <li>{k.alt}: {k.image.note}</li>}</For>
        </ul>
      </Show>
    </>
  );
}
