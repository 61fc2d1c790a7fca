// A placeholder that is never cut mid-word: the longest of several wordings that fits the field
// on one line at its current width (a textarea wraps its placeholder, and a one-row box then shows
// half a line). Re-measured when the field is resized.
import { createSignal, onCleanup, type Accessor } from 'solid-js';

let canvas: HTMLCanvasElement | undefined;

/** Whether `text` fits `el`'s content box on one line, in `el`'s font. */
function fitsOneLine(el: HTMLElement, text: string): boolean {
  const style = getComputedStyle(el);
  const room = el.clientWidth - parseFloat(style.paddingLeft || '0') - parseFloat(style.paddingRight || '0');
  // Not laid out (hidden, or a DOM without layout): nothing to measure against.
  if (room <= 0) return true;
  canvas ??= document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return true;
  context.font = style.font || `${style.fontSize} ${style.fontFamily}`;
  return context.measureText(text).width <= room;
}

/**
 * `wordings`, longest first; the last is used when none fits. Call inside a component: the
 * returned placeholder follows the element given to `attach` as it is resized.
 */
export function createFittingPlaceholder(wordings: readonly string[]): { placeholder: Accessor<string>; attach: (el: HTMLElement) => void } {
  const [placeholder, setPlaceholder] = createSignal(wordings[0]!);
  let observer: ResizeObserver | undefined;
  onCleanup(() => observer?.disconnect());
  const attach = (el: HTMLElement) => {
    const measure = () => setPlaceholder(wordings.find((w) => fitsOneLine(el, w)) ?? wordings.at(-1)!);
    if (typeof ResizeObserver === 'function') {
      observer = new ResizeObserver(measure);
      observer.observe(el);
    }
    queueMicrotask(measure);
  };
  return { placeholder, attach };
}
