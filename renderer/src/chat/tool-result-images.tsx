import { For, Show } from 'solid-js';

/** Image types a browser shows safely from a data: URL (no SVG: it could carry script). */
const SHOWN = /^image\/(png|jpeg|gif|webp|avif|bmp)$/i;

interface ResultImage {
  mimeType: string;
  data: string;
}

/** Images a tool returned (MCP image content: `data.images`), when the stored result still has them. */
export function resultImages(data: unknown): ResultImage[] {
  const images = (data as { images?: unknown } | null | undefined)?.images;
  if (!Array.isArray(images)) return [];
  return images.filter((i): i is ResultImage => !!i && typeof i.mimeType === 'string' && typeof i.data === 'string' && SHOWN.test(i.mimeType) && /^[A-Za-z0-9+/=\s]*$/.test(i.data));
}

/** The images of a tool result, shown in its tool-call block (issue 12: MCP image content). */
export function ToolResultImages(props: { data: unknown; toolName: string }) {
  const images = () => resultImages(props.data);
  return (
    <Show when={images().length > 0}>
      <div class="row tool-images" data-testid="tool-images">
        <For each={images()}>
          {(image, i) => (
            <img class="tool-image" src={`data:${image.mimeType};base64,${image.data.replace(/\s/g, '')}`} alt={`Image ${i() + 1} from ${props.toolName} (${image.mimeType})`} style={{ 'max-width': '100%', 'max-height': '320px' }} />
          )}
        </For>
      </div>
    </Show>
  );
}
