// Settings as a page of its own in place of the chat: the section list on the left, every section
// in one scrolling column on the right (so find-in-page and scrolling reach all of them). A
// section's entry scrolls it to the top and puts the keyboard in it; the entry of the section
// being read is marked as current. Which sections there are: settings-sections.ts.
import { For, Show, createSignal, onMount } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { useApp } from '../store/app-context.tsx';
import { Icon } from '../ui/icons.tsx';
import { HelpLink } from '../ui/help-link.tsx';
import { SETTINGS_SECTIONS } from './settings-sections.ts';
import './settings.css';

const anchorId = (id: string) => `settings-${id}`;

/** `section`: the section to show first (a link such as "Settings → Tool groups"). */
export function SettingsPage(props: { onClose: () => void; section?: string | undefined }) {
  const app = useApp();
  const [current, setCurrent] = createSignal(SETTINGS_SECTIONS[0]!.id);
  let body!: HTMLDivElement;
  let heading!: HTMLHeadingElement;

  const sectionTop = (el: HTMLElement) => el.getBoundingClientRect().top - body.getBoundingClientRect().top + body.scrollTop;
  const go = (id: string) => {
    const el = document.getElementById(anchorId(id));
    if (!el) return;
    body.scrollTop = sectionTop(el);
    el.focus({ preventScroll: true });
    setCurrent((chosen = id));
  };
  // The entry picked stays current while its section is in view (the last ones never reach the top).
  let chosen: string | null = null;
  const inView = (el: HTMLElement) => {
    const [r, b] = [el.getBoundingClientRect(), body.getBoundingClientRect()];
    return r.bottom > b.top && r.top < b.bottom;
  };
  /** The section whose top was scrolled past last (the last one once the end is reached). */
  const onScroll = () => {
    const picked = chosen && document.getElementById(anchorId(chosen));
    if (picked && inView(picked)) return;
    chosen = null;
    const atEnd = body.scrollTop + body.clientHeight >= body.scrollHeight - 2;
    let seen = SETTINGS_SECTIONS[0]!.id;
    for (const entry of SETTINGS_SECTIONS) {
      const el = document.getElementById(anchorId(entry.id));
      if (el && (atEnd || sectionTop(el) <= body.scrollTop + 24)) seen = entry.id;
      if (el && !atEnd && sectionTop(el) > body.scrollTop + 24) break;
    }
    setCurrent(seen);
  };
  // Opened by its tab, a link or a dropped bundle: the keyboard follows into the page.
  onMount(() => (props.section ? go(props.section) : heading.focus()));

  return (
    <section class="settings-page" aria-labelledby="settings-heading" data-testid="settings-panel">
      <div class="settings-page-head row">
        <h2 id="settings-heading" class="grow" tabIndex={-1} ref={heading}>
          Settings
        </h2>
        <button type="button" class="icon" aria-label="Close settings" title="Close (Esc)" onClick={() => props.onClose()}>
          <Icon name="close" />
        </button>
      </div>
      <div class="settings-columns">
        <nav class="settings-nav" aria-label="Settings sections" data-testid="settings-nav">
          <ul>
            <For each={SETTINGS_SECTIONS}>
              {(entry) => (
                <li>
                  <button type="button" aria-current={current() === entry.id ? 'true' : undefined} aria-controls={anchorId(entry.id)} onClick={() => go(entry.id)}>
                    {entry.title}
                  </button>
                </li>
              )}
            </For>
          </ul>
        </nav>
        <div class="settings-body stack" ref={body} onScroll={onScroll} data-testid="settings-body">
          <Show when={app.state.settings} fallback={<p class="muted">Loading settings…</p>}>
            <For each={SETTINGS_SECTIONS}>
              {(entry) => (
                <div id={anchorId(entry.id)} class="settings-anchor" tabIndex={-1} data-section={entry.id}>
                  <Dynamic component={entry.component} />
                  <HelpLink page={entry.docs} topic={entry.title} />
                </div>
              )}
            </For>
          </Show>
        </div>
      </div>
    </section>
  );
}
