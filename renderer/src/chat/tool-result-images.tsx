import { For, Show, createResource } from 'solid-js';
import type { ToolExecuteResult } from '../../../shared/tools.ts';

/** Image types a browser shows safely from a data: URL (no SVG: it could carry script). */
const SHOWN = /^image\/(png|jpeg|gif|webp|avif|bmp)$/i;
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

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
  return images.filter((i): i is ResultImage => !!i && typeof i.mimeType === 'string' && typeof i.data === 'string' && SHOWN.test(i.mimeType) && BASE64.test(i.data));
}

function ImageView(props: { image: ResultImage; alt: string }) {
  return (
    <Show when={SHOWN.test(props.image.mimeType) && BASE64.test(props.image.data)}>
      <img class="tool-image" src={`data:${props.image.mimeType};base64,${props.image.data.replace(/\s/g, '')}`} alt={props.alt} style={{ 'max-width': '100%', 'max-height': '320px' }} />
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
