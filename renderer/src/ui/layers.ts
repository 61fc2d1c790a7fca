// What Esc closes. Every surface drawn over the chat (a dialog, a menu, the side panel, the
// sessions drawer) registers itself while it is open; Esc closes the most recent one and nothing
// else. Only with no layer open may Esc reach the turn (see App's key handler).
import { onCleanup } from 'solid-js';

interface Layer {
  close: () => void;
}

const stack: Layer[] = [];

/** Registers an open layer; the returned function unregisters it (call it when the layer closes). */
export function openLayer(close: () => void): () => void {
  const layer: Layer = { close };
  stack.push(layer);
  return () => {
    const i = stack.indexOf(layer);
    if (i >= 0) stack.splice(i, 1);
  };
}

/** Registers the calling component as a layer for as long as it is mounted. */
export function useLayer(close: () => void): void {
  onCleanup(openLayer(close));
}

/** Closes the top layer. False when none is open. */
export function closeTopLayer(): boolean {
  const top = stack.pop();
  if (!top) return false;
  top.close();
  return true;
}

export const openLayerCount = () => stack.length;
