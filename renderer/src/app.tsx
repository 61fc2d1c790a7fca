import { Match, Show, Switch, createEffect, createResource, createSignal, on, onCleanup, onMount } from 'solid-js';
import type { AppStore } from './store/create-app-store.ts';
import { Icon } from './ui/icons.tsx';
import { AppProvider } from './store/app-context.tsx';
import { SessionsSidebar } from './sessions/sessions-sidebar.tsx';
import { ChatView } from './chat/chat-view.tsx';
import { ToolsPanel } from './tools/tools-panel.tsx';
import { VariablesPanel } from './variables/variables-panel.tsx';
import { SettingsPage } from './settings/settings-page.tsx';
import { SandboxBanner } from './ui/sandbox-banner.tsx';
import { StartupWarnings } from './ui/startup-warnings.tsx';
import { focusFirstWaitingCard, isJumpToApprovalKey } from './approvals/focus-if-idle.ts';
import { watchTyping } from './approvals/typing-watch.ts';
import { closeTopLayer, openLayer } from './ui/layers.ts';
import { listenForBundleDrops } from './settings/mcp-servers/bundle-drop.ts';
import { returnFocusAfterClose } from './ui/return-focus.ts';
import { Inbox } from './schedules/inbox.tsx';
import { ScheduleNotifier } from './schedules/schedule-notifier.tsx';
import './ui/theme.css';
import './ui/layout.css';

export type PanelName = 'tools' | 'variables' | 'settings';

/** The window: sessions on the left, the chat in the middle, one side panel on the right. */
export function App(props: { store: AppStore; connection?: () => string }) {
  const [panel, setPanel] = createSignal<PanelName | null>(null);
  const [focusVariable, setFocusVariable] = createSignal<string | null>(null);
  // A link into Settings names its section; the Tools panel can open on its New tool form.
  const [settingsSection, setSettingsSection] = createSignal<string | undefined>();
  const [newToolAtOpen, setNewToolAtOpen] = createSignal(false);
  const openSettings = (section?: string) => {
    setSettingsSection(section);
    setPanel(null);
    setPanel('settings');
  };
  const openNewTool = () => {
    setNewToolAtOpen(true);
    setPanel('tools');
  };
  // Below 900px the sidebar is hidden; this opens it over the chat (the only way to sessions there).
  const [sessionsOpen, setSessionsOpen] = createSignal(false);
  const narrow = () => window.matchMedia?.('(max-width: 900px)').matches ?? false;
  // One read of the host's state for both banners; re-read when the settings change (the sandbox
  // mode lives there, and an invalid outside write adds a warning).
  const [appInfo] = createResource(
    () => props.store.state.settings,
    () => props.store.api.appInfo().catch(() => null),
  );
  let search: HTMLInputElement | undefined;
  let composer: HTMLTextAreaElement | undefined;

  const controls = {
    openVariable(name: string) {
      setPanel('variables');
      setFocusVariable(name);
    },
    focusComposer() {
      composer?.focus();
    },
    insertIntoComposer(text: string) {
      if (!composer) return;
      const start = composer.selectionStart ?? composer.value.length;
      const end = composer.selectionEnd ?? start;
      composer.value = composer.value.slice(0, start) + text + composer.value.slice(end);
      composer.dispatchEvent(new Event('input', { bubbles: true }));
      composer.focus();
      composer.setSelectionRange(start + text.length, start + text.length);
    },
  };

  const running = () => {
    const id = props.store.state.activeSessionId;
    return !!(id && props.store.state.chats[id]?.running);
  };
  /** A card or an MCP question of the open chat waits for an answer: Esc must never end that turn. */
  const waitingForUser = () => {
    const id = props.store.state.activeSessionId;
    const chat = id ? props.store.state.chats[id] : undefined;
    return !!chat && (chat.approvalOrder.length > 0 || chat.mcpAsks.length > 0);
  };
  /** Closes the narrow window's sessions drawer; the keyboard, if it was in it, goes back to its button. */
  const closeSessions = () => {
    returnFocusAfterClose(document.getElementById('sessions-sidebar'), () => document.querySelector<HTMLElement>('[data-testid="sessions-toggle"]'));
    setSessionsOpen(false);
  };
  /** Closes the side panel and gives the keyboard back to the tab that opens it. */
  const closePanel = () => {
    const name = panel();
    setPanel(null);
    setSettingsSection(undefined);
    setNewToolAtOpen(false);
    if (name) document.querySelector<HTMLElement>(`[data-testid="tab-${name}"]`)?.focus();
  };

  /**
   * Cards never take the keyboard from someone typing: this shortcut is how to reach them. Caught
   * before any field sees it (the session search would open a session on its Enter).
   */
  const onJumpKey = (e: KeyboardEvent) => {
    if (!isJumpToApprovalKey(e)) return;
    e.preventDefault();
    e.stopPropagation();
    focusFirstWaitingCard();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      if (narrow()) setSessionsOpen(true);
      search?.focus();
      search?.select();
    } else if (e.key === 'Escape' && e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // Shift+Esc puts the cursor in the message box from anywhere (open layers stay open, but
      // Settings, which takes the chat's place, gives it back).
      e.preventDefault();
      if (panel() === 'settings') setPanel(null);
      composer?.focus();
    } else if (e.key === 'Escape' && !e.defaultPrevented) {
      // Esc closes the top layer only (menu → dialog → panel → drawer). With none open it stops a
      // running turn, unless the turn waits for the user: that one ends by Stop or by the card.
      if (closeTopLayer()) {
        e.preventDefault();
      } else if (running() && !waitingForUser()) {
        e.preventDefault();
        void props.store.abort();
      }
    }
  };
  // Opening or starting a session closes the narrow-window sidebar.
  createEffect(on(() => props.store.state.activeSessionId, () => setSessionsOpen(false), { defer: true }));
  // The side panel and the narrow window's sessions drawer are layers Esc closes, newest first.
  createEffect(() => {
    if (panel()) onCleanup(openLayer(closePanel));
  });
  createEffect(() => {
    if (sessionsOpen()) onCleanup(openLayer(closeSessions));
  });
  let stopTypingWatch: (() => void) | undefined;
  let stopBundleDrops: (() => void) | undefined;
  onMount(() => {
    stopTypingWatch = watchTyping(document);
    // A .mcpb dropped on the window opens in Settings → MCP servers.
    stopBundleDrops = listenForBundleDrops(window, () => openSettings('mcp'));
    document.addEventListener('keydown', onJumpKey, true);
    document.addEventListener('keydown', onKeyDown);
    void props.store.init();
  });
  onCleanup(() => {
    stopTypingWatch?.();
    stopBundleDrops?.();
    document.removeEventListener('keydown', onJumpKey, true);
    document.removeEventListener('keydown', onKeyDown);
    props.store.dispose();
  });

  /** A tab opens its panel and puts the keyboard in it (Settings focuses its own heading), or closes it. */
  const toggle = (name: PanelName) => {
    if (panel() === name) return closePanel();
    setPanel(name);
    if (name !== 'settings') queueMicrotask(() => document.querySelector<HTMLElement>('.panel-head h2')?.focus());
  };
  const sidePanel = () => (panel() === 'settings' ? null : panel());
  const tab = (name: PanelName, label: string) => (
    <button type="button" class={`tab ${panel() === name ? 'active' : ''}`} aria-pressed={panel() === name} onClick={() => toggle(name)} data-testid={`tab-${name}`}>
      {label}
    </button>
  );
  const activeTitle = () => props.store.state.sessions.find((s) => s.id === props.store.state.activeSessionId)?.title ?? 'Tooldesk';

  return (
    <AppProvider value={{ ...props.store, ...controls }}>
      <ScheduleNotifier browserMode={() => appInfo()?.browserMode ?? false} />
      <div class={`layout ${sidePanel() ? 'with-panel' : ''} ${sessionsOpen() ? 'sessions-open' : ''}`}>
        <aside class="sidebar" id="sessions-sidebar">
          <div class="brand">Tooldesk</div>
          <Inbox />
          <SessionsSidebar searchRef={(el) => (search = el)} />
        </aside>
        <main class="main">
          <header class="topbar">
            <button
              type="button"
              class="icon sessions-toggle"
              aria-label="Sessions"
              aria-controls="sessions-sidebar"
              aria-expanded={sessionsOpen()}
              onClick={() => {
                setSessionsOpen(!sessionsOpen());
                // The sidebar comes before this button in tab order: take the keyboard there.
                if (sessionsOpen()) search?.focus();
              }}
              data-testid="sessions-toggle"
            >
              <Icon name="menu" size={18} />
            </button>
            <h1 class="session-heading">{activeTitle()}</h1>
            <Show when={props.connection && props.connection() !== 'open'}>
              <span class="badge warn" role="status">
                {props.connection!() === 'connecting' ? 'connecting…' : 'disconnected'}
              </span>
            </Show>
            <nav class="tabs row" aria-label="Panels">
              {tab('tools', 'Tools')}
              {tab('variables', 'Variables')}
              {tab('settings', 'Settings')}
            </nav>
          </header>
          <SandboxBanner info={appInfo} onOpenSettings={() => openSettings('sandbox')} />
          <StartupWarnings info={appInfo} />
          {/* In the column's flow, under the header: it never covers the message box or its buttons. */}
          <Show when={props.store.error()}>
            <div class="toast" role="alert" data-testid="error-toast">
              <span class="grow">{props.store.error()}</span>
              <button type="button" class="icon" aria-label="Dismiss" onClick={() => props.store.setError(null)}>
                <Icon name="close" />
              </button>
            </div>
          </Show>
          {/* Settings takes the chat's place; the chat stays mounted underneath (its drafts, its cards). */}
          <Show when={panel() === 'settings'}>
            <SettingsPage onClose={closePanel} section={settingsSection()} />
          </Show>
          <ChatView hidden={panel() === 'settings'} onOpenSettings={openSettings} onNewTool={openNewTool} composerRef={(el) => (composer = el)} />
        </main>
        <Show when={sidePanel()}>
          <div class="panel-backdrop" aria-hidden="true" onClick={closePanel} />
          <aside class="panel" aria-label={sidePanel()!}>
            <div class="panel-head row">
              <h2 class="grow" tabIndex={-1}>
                {panel() === 'tools' ? 'Tools' : 'Variables'}
              </h2>
              <button type="button" class="icon" aria-label="Close panel" title="Close (Esc)" onClick={closePanel}>
                <Icon name="close" />
              </button>
            </div>
            <div class="panel-body">
              <Switch>
                <Match when={panel() === 'tools'}>
                  <ToolsPanel creating={newToolAtOpen()} />
                </Match>
                <Match when={panel() === 'variables'}>
                  <VariablesPanel focus={focusVariable()} onFocusHandled={() => setFocusVariable(null)} />
                </Match>
              </Switch>
            </div>
          </aside>
        </Show>
        <Show when={sessionsOpen()}>
          <div class="sessions-backdrop" aria-hidden="true" onClick={closeSessions} />
        </Show>
      </div>
    </AppProvider>
  );
}
