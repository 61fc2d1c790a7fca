// A `.mcpb` dropped anywhere on the window: taken before the composer can treat it as an
// attachment, handed to Settings → MCP servers, which opens it (the app shows Settings). Other
// files dropped outside a drop target are swallowed rather than opened in place of the app.
import { createSignal } from 'solid-js';

const [droppedBundle, setDroppedBundle] = createSignal<File | null>(null);

/** The bundle dropped last and not yet opened (Settings → MCP servers takes it). */
export { droppedBundle };

/** Takes the dropped bundle (it is opened once). */
export function takeDroppedBundle(): File | null {
  const file = droppedBundle();
  setDroppedBundle(null);
  return file;
}

export const isBundleFile = (file: { name: string }): boolean => /\.mcpb$/i.test(file.name);

/**
 * Listens on `target` (the window) for dropped files. Contract: `onBundle` is called after a
 * `.mcpb` was dropped (droppedBundle() holds it); returns the function that stops listening.
 */
export function listenForBundleDrops(target: Window, onBundle: () => void): () => void {
  const hasFiles = (e: DragEvent) => !!e.dataTransfer?.types.includes('Files');
  const onDragOver = (e: DragEvent) => {
    if (hasFiles(e)) e.preventDefault();
  };
  // Capture phase: the composer's own drop handler never sees a bundle.
  const onDropCapture = (e: DragEvent) => {
    const bundle = [...(e.dataTransfer?.files ?? [])].find(isBundleFile);
    if (!bundle) return;
    e.preventDefault();
    e.stopPropagation();
    setDroppedBundle(bundle);
    onBundle();
  };
  const onDropUnhandled = (e: DragEvent) => {
    if (hasFiles(e) && !e.defaultPrevented) e.preventDefault();
  };
  target.addEventListener('dragover', onDragOver);
  target.addEventListener('drop', onDropCapture, true);
  target.addEventListener('drop', onDropUnhandled);
  return () => {
    target.removeEventListener('dragover', onDragOver);
    target.removeEventListener('drop', onDropCapture, true);
    target.removeEventListener('drop', onDropUnhandled);
  };
}
