// An image shown large over the app: zoom (buttons, + − 0 keys), copy (as PNG, what clipboards
// take) and save. A modal <dialog> registered as a layer: Esc closes it and nothing under it.
import { Show, createSignal, onMount } from 'solid-js';
import { useLayer } from './layers.ts';

export interface ShownImage {
  mimeType: string;
  data: string;
}

/** Image types a browser shows safely from a data: URL (no SVG: it could carry script). */
const SHOWN = /^image\/(png|jpeg|gif|webp|avif|bmp)$/i;
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

/** A data: URL for an image of a safe type, or null. */
export function imageSrc(image: ShownImage): string | null {
  return SHOWN.test(image.mimeType) && BASE64.test(image.data) ? `data:${image.mimeType};base64,${image.data.replace(/\s/g, '')}` : null;
}

const ZOOMS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];

async function pngBlob(img: HTMLImageElement, image: ShownImage): Promise<Blob> {
  // Decoded here, not fetched: the app's CSP (connect-src) refuses fetching a data: URL.
  if (image.mimeType.toLowerCase() === 'image/png') return new Blob([Uint8Array.from(atob(image.data.replace(/\s/g, '')), (c) => c.charCodeAt(0))], { type: 'image/png' });
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  canvas.getContext('2d')!.drawImage(img, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the image could not be converted'))), 'image/png'));
}

export function ImageLightbox(props: { image: ShownImage; name: string; onClose: () => void }) {
  // null: fit the window; else a scale of the image's own size.
  const [zoom, setZoom] = createSignal<number | null>(null);
  const [status, setStatus] = createSignal('');
  const before = document.activeElement as HTMLElement | null;
  let dialog!: HTMLDialogElement;
  let img!: HTMLImageElement;
  let closeButton!: HTMLButtonElement;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    if (dialog.open && typeof dialog.close === 'function') dialog.close();
    props.onClose();
    if (before?.isConnected) before.focus();
  };
  useLayer(close);
  onMount(() => {
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    closeButton.focus();
  });
  const current = () => zoom() ?? (img?.naturalWidth ? Math.min(1, img.width / img.naturalWidth) : 1);
  const step = (direction: 1 | -1) => {
    const now = current();
    const next = direction > 0 ? ZOOMS.find((z) => z > now + 0.001) : [...ZOOMS].reverse().find((z) => z < now - 0.001);
    setZoom(next ?? (direction > 0 ? ZOOMS.at(-1)! : ZOOMS[0]!));
  };
  const copy = async () => {
    try {
      const blob = await pngBlob(img, props.image);
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
      setStatus('Copied');
    } catch (error) {
      setStatus(`Could not copy: ${(error as Error).message}`);
    }
  };
  const save = () => {
    const a = document.createElement('a');
    a.href = imageSrc(props.image)!;
    a.download = props.name;
    document.body.append(a);
    a.click();
    a.remove();
    setStatus(`Saved as ${props.name}`);
  };

  return (
    <dialog
      ref={dialog}
      class="image-lightbox"
      aria-label={props.name}
      data-testid="image-lightbox"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          close();
        } else if (e.key === '+' || e.key === '=') step(1);
        else if (e.key === '-') step(-1);
        else if (e.key === '0') setZoom(null);
      }}
    >
      <div class="lightbox-bar row">
        <strong class="grow lightbox-name">{props.name}</strong>
        <span class="small" role="status" data-testid="lightbox-status">
          {status()}
        </span>
        <button type="button" onClick={() => step(-1)} aria-keyshortcuts="-">
          Zoom out
        </button>
        <span class="small mono" data-testid="lightbox-zoom">
          {zoom() === null ? 'Fit' : `${Math.round(zoom()! * 100)}%`}
        </span>
        <button type="button" onClick={() => step(1)} aria-keyshortcuts="+">
          Zoom in
        </button>
        <button type="button" onClick={() => setZoom(null)} aria-keyshortcuts="0">
          Fit
        </button>
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" onClick={save}>
          Save
        </button>
        <button type="button" ref={closeButton} onClick={close}>
          Close
        </button>
      </div>
      <div class="lightbox-stage" classList={{ zoomed: zoom() !== null }}>
        <Show when={imageSrc(props.image)}>
          {(src) => (
            <img
              ref={img}
              src={src()}
              alt={props.name}
              data-testid="lightbox-image"
              style={zoom() === null ? {} : { width: `${(img?.naturalWidth ?? 0) * zoom()!}px`, 'max-width': 'none', 'max-height': 'none' }}
            />
          )}
        </Show>
      </div>
    </dialog>
  );
}
