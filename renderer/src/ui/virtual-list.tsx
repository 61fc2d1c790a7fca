import { For, createMemo, createSignal, onCleanup, onMount, createEffect, on, type JSX } from 'solid-js';
import { firstVisible, prefixOffsets } from './virtual-window.ts';

/**
 * A windowed list: only the rows in (and just around) the viewport exist in the DOM. Heights
 * are estimated until a row has been measured (ResizeObserver). With `followOutput`, a list
 * scrolled to the bottom stays there while rows grow or arrive (streaming); a new `pinKey`
 * (e.g. the user's latest message) scrolls back to the bottom even from higher up.
 */
export function VirtualList<T>(props: {
  items: readonly T[];
  key: (item: T) => string;
  estimate?: number;
  overscan?: number;
  followOutput?: boolean;
  pinKey?: string;
  class?: string;
  children: (item: T) => JSX.Element;
}) {
  let scroller!: HTMLDivElement;
  const heights = new Map<string, number>();
  const [version, setVersion] = createSignal(0);
  const [scrollTop, setScrollTop] = createSignal(0);
  const [viewport, setViewport] = createSignal(800);
  let atBottom = true;
  let lastTop = 0;
  const estimate = () => props.estimate ?? 96;

  const offsets = createMemo(() => {
    version();
    return prefixOffsets(props.items.length, (i) => heights.get(props.key(props.items[i]!)) ?? estimate());
  });
  const range = createMemo(() => {
    const o = offsets();
    const overscan = props.overscan ?? 4;
    const start = Math.max(0, firstVisible(o, scrollTop()) - overscan);
    let end = start;
    const bottom = scrollTop() + viewport();
    while (end < props.items.length && o[end]! < bottom) end++;
    return { start, end: Math.min(props.items.length, end + overscan) };
  });
  const visible = createMemo(() => props.items.slice(range().start, range().end));

  const observer =
    typeof ResizeObserver === 'function'
      ? new ResizeObserver((entries) => {
          let changed = false;
          for (const entry of entries) {
            const key = (entry.target as HTMLElement).dataset.key;
            const height = (entry.target as HTMLElement).offsetHeight;
            if (key !== undefined && height > 0 && heights.get(key) !== height) {
              heights.set(key, height);
              changed = true;
            }
          }
          if (changed) setVersion((v) => v + 1);
        })
      : undefined;
  onCleanup(() => observer?.disconnect());

  const stickToBottom = () => {
    if (props.followOutput !== false && atBottom) scroller.scrollTop = scroller.scrollHeight;
  };
  // Only the user scrolling up stops the follow. Rows measured taller than their estimate grow
  // the list between our scroll and its event, so "not at the bottom" alone is no such sign.
  // A smaller scrollTop while the content's height changed is the list re-measuring rows above
  // (the browser moved the view), not the user.
  let lastHeight = 0;
  const onScroll = () => {
    const top = scroller.scrollTop;
    const height = scroller.scrollHeight;
    if (top + scroller.clientHeight >= height - 24) atBottom = true;
    else if (top < lastTop && height === lastHeight) atBottom = false;
    lastTop = top;
    lastHeight = height;
    setScrollTop(top);
  };
  onMount(() => {
    setViewport(scroller.clientHeight || 800);
    // A shorter window (resize, a banner above the list) keeps a list that was at the bottom there.
    const resize =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            setViewport(scroller.clientHeight || 800);
            queueMicrotask(stickToBottom);
          })
        : undefined;
    resize?.observe(scroller);
    onCleanup(() => resize?.disconnect());
    scroller.scrollTop = scroller.scrollHeight;
    setScrollTop(scroller.scrollTop);
  });
  createEffect(on([() => offsets()[props.items.length], () => props.items.length], () => queueMicrotask(stickToBottom), { defer: true }));
  createEffect(
    on(
      () => props.pinKey,
      () => {
        atBottom = true;
        queueMicrotask(stickToBottom);
      },
      { defer: true },
    ),
  );

  const total = () => offsets()[props.items.length] ?? 0;
  return (
    <div ref={scroller} class={`virtual-list ${props.class ?? ''}`} onScroll={onScroll} data-testid="message-list">
      <div style={{ height: `${total()}px`, position: 'relative' }}>
        <div style={{ position: 'absolute', left: 0, right: 0, top: 0, transform: `translateY(${offsets()[range().start] ?? 0}px)` }}>
          <For each={visible()}>
            {(item) => {
              const key = props.key(item);
              return (
                <div
                  data-key={key}
                  ref={(el) => {
                    observer?.observe(el);
                    onCleanup(() => observer?.unobserve(el));
                  }}
                >
                  {props.children(item)}
                </div>
              );
            }}
          </For>
        </div>
      </div>
    </div>
  );
}
