import { createEffect, onCleanup } from 'solid-js';
import { renderMarkdown } from './markdown.ts';
import { copyText } from './copy-text.ts';
import { stableBoundary } from './stable-boundary.ts';
import { highlightCodeBlocks } from './highlight-code.ts';

/**
 * Sanitised Markdown with a copy button on each code block. While `streaming`, rendering is
 * batched to one pass per animation frame, and finished blocks are rendered once and kept
 * (see stable-boundary.ts); when the stream ends the whole text is rendered once more.
 * Finished code blocks are syntax-highlighted (lazily loaded); the streaming tail never is.
 */
export function MarkdownView(props: { text: string; streaming?: boolean; class?: string }) {
  let el!: HTMLDivElement;
  let frame = 0;
  let rendered: string | undefined;
  /** Streaming state: text[0, committed) lives in frozen chunk nodes before `tail`. */
  let committed = 0;
  let tail: HTMLDivElement | null = null;

  const withCopyButtons = (root: HTMLElement) => {
    for (const pre of Array.from(root.querySelectorAll('pre'))) {
      if (pre.querySelector(':scope > button.copy-code')) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy-code';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy code');
      pre.prepend(button);
    }
  };

  const paintAll = (text: string) => {
    el.innerHTML = renderMarkdown(text);
    withCopyButtons(el);
    void highlightCodeBlocks(el);
    tail = null;
    committed = 0;
  };

  const paintStreaming = (text: string) => {
    if (!tail || rendered === undefined || !text.startsWith(rendered.slice(0, committed))) {
      el.textContent = '';
      committed = 0;
      tail = document.createElement('div');
      tail.className = 'md-tail';
      el.append(tail);
    }
    const boundary = stableBoundary(text, committed);
    if (boundary > committed) {
      const chunk = document.createElement('div');
      chunk.className = 'md-chunk';
      chunk.innerHTML = renderMarkdown(text.slice(committed, boundary));
      withCopyButtons(chunk);
      void highlightCodeBlocks(chunk);
      el.insertBefore(chunk, tail);
      committed = boundary;
    }
    tail.innerHTML = renderMarkdown(text.slice(committed));
  };

  const paint = () => {
    frame = 0;
    const text = props.text;
    const streaming = !!props.streaming;
    if (text === rendered && (streaming || tail === null)) return;
    if (streaming) paintStreaming(text);
    else paintAll(text);
    rendered = text;
  };

  createEffect(() => {
    void props.text;
    const streaming = props.streaming;
    if (rendered === undefined || !streaming || typeof requestAnimationFrame !== 'function') {
      if (frame) cancelAnimationFrame(frame);
      return paint();
    }
    if (!frame) frame = requestAnimationFrame(paint);
  });
  onCleanup(() => frame && cancelAnimationFrame(frame));

  const onClick = (e: MouseEvent) => {
    const button = (e.target as HTMLElement).closest('button.copy-code');
    if (!button) return;
    const code = button.parentElement?.querySelector('code');
    void copyText(code?.textContent ?? '').then((ok) => {
      button.textContent = ok ? 'Copied' : 'Copy failed';
      setTimeout(() => (button.textContent = 'Copy'), 1200);
    });
  };

  return <div ref={el} class={`markdown ${props.class ?? ''}`} onClick={onClick} />;
}
