// The app of a tool call, inside its block: fetched from the runtime (openMcpApp), shown in the
// sandboxed frame (app-frame.ts) once the server is trusted or the user chose "Show this app",
// with what its CSP lets it reach, a permission prompt, inline questions before it sends a
// message to the chat or opens a link, fullscreen, "Show as text" and the app's message log.
import { For, Show, createSignal, onCleanup, type JSX } from 'solid-js';
import type { McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppConsentKind, McpAppView } from '../../../shared/mcp-apps.ts';
import { useApp } from '../store/app-context.tsx';
import { boundedAppHeight, MAX_APP_FRAMES_PER_CHAT } from './app-message-budget.ts';
import type { MountedApp } from './app-frame.ts';
import { logAppMessage } from './app-message-log.ts';
import { openLayer } from '../ui/layers.ts';
import './mcp-apps.css';

/** Frames shown per chat (session id → call ids). */
const framesByChat = new Map<string, Set<string>>();

interface Question {
  kind: Extract<AppConsentKind, 'messages' | 'links'>;
  text: string;
  answer: (yes: boolean, always: boolean) => void;
}

export function McpAppBlock(props: { sessionId: string; callId: string; fallbackText: string }): JSX.Element {
  const app = useApp();
  const [view, setView] = createSignal<McpAppView | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [stopped, setStopped] = createSignal<string | null>(null);
  const [asText, setAsText] = createSignal(false);
  const [mode, setMode] = createSignal<McpUiDisplayMode>('inline');
  const [height, setHeight] = createSignal(160);
  const [question, setQuestion] = createSignal<Question | null>(null);
  const [waiting, setWaiting] = createSignal(false);
  const [context, setContext] = createSignal<{ text: string; chars: number; truncated: boolean } | null>(null);
  let mounted: MountedApp | undefined;
  let root!: HTMLDivElement;
  let fullscreenButton: HTMLButtonElement | undefined;
  let leaveLayer: (() => void) | undefined;
  /**
   * Fullscreen puts the block in the browser's top layer (a manual popover): it then covers the
   * window less a margin whatever the chat's scrolled, transformed list around it does, and the
   * frame is not moved (moving an iframe would reload the app). Esc leaves it (a layer).
   */
  const showMode = (next: McpUiDisplayMode) => {
    if (next === mode()) return;
    setMode(next);
    if (next === 'fullscreen') {
      root.setAttribute('popover', 'manual');
      root.showPopover?.();
      leaveLayer = openLayer(() => leave());
    } else {
      leaveLayer?.();
      leaveLayer = undefined;
      if (root.matches(':popover-open')) root.hidePopover();
      root.removeAttribute('popover');
    }
    queueMicrotask(() => fullscreenButton?.focus());
  };
  const leave = () => {
    leaveLayer = undefined;
    showMode('inline');
    mounted?.setDisplayMode('inline');
  };
  onCleanup(() => leaveLayer?.());

  const frames = () => framesByChat.get(props.sessionId) ?? framesByChat.set(props.sessionId, new Set()).get(props.sessionId)!;
  const unmount = () => {
    mounted?.dispose();
    mounted = undefined;
    frames().delete(props.callId);
  };
  const addLog = (line: string) => logAppMessage(props.callId, line);
  const ask = (kind: Question['kind'], text: string) =>
    new Promise<boolean>((resolve) => {
      const current = view();
      if (current?.consents.includes(kind) && kind === 'messages') return resolve(true);
      setQuestion({
        kind,
        text,
        answer: (yes, always) => {
          setQuestion(null);
          if (yes && always && current?.server) void app.guard(() => app.api.allowMcpApp({ server: current.server!, kind })).then((c) => c && setView({ ...current, consents: c }));
          resolve(yes);
        },
      });
    });

  const load = async () => {
    unmount();
    setStopped(null);
    setProblem(null);
    try {
      setView(await app.api.openMcpApp({ sessionId: props.sessionId, callId: props.callId }));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  void load();
  onCleanup(unmount);

  // A ref runs before the element is in the page; an iframe has a window only once it is.
  // The host bridge (ext-apps, the MCP client, zod) loads with the first app, not with Tooldesk.
  const attach = (container: HTMLDivElement) =>
    void import('./app-frame.ts').then(({ mountAppFrame }) => container.isConnected && mountIn(container, mountAppFrame));
  const mountIn = (container: HTMLDivElement, mountAppFrame: typeof import('./app-frame.ts').mountAppFrame) => {
    const current = view();
    if (!current?.proxyUrl) return;
    if (frames().size >= MAX_APP_FRAMES_PER_CHAT && !frames().has(props.callId)) {
      setWaiting(true);
      return;
    }
    frames().add(props.callId);
    mounted = mountAppFrame(container, current, {
      callTool: (name, args) => app.api.callToolFromApp({ sessionId: props.sessionId, callId: props.callId, name, args }),
      readResource: (uri) => app.api.readResourceFromApp({ sessionId: props.sessionId, callId: props.callId, uri }),
      message: async (text) => {
        if (!text.trim() || !(await ask('messages', text))) return false;
        return (await app.guard(() => app.api.sendMessage({ sessionId: props.sessionId, text }))) !== undefined;
      },
      openLink: async (url) => {
        if (!/^https?:\/\//i.test(url) || !(view()?.consents.includes('links') || (await ask('links', url)))) return false;
        window.open(url, '_blank', 'noopener,noreferrer');
        return true;
      },
      updateContext: async (text) => {
        const kept = await app.api.updateModelContextFromApp({ sessionId: props.sessionId, callId: props.callId, text: text.slice(0, 64 * 1024) });
        setContext(kept.chars ? { text, ...kept } : null);
      },
      size: (h) => {
        const bounded = boundedAppHeight(h);
        if (bounded !== undefined) setHeight(bounded);
      },
      displayMode: (next) => {
        showMode(next === 'fullscreen' ? 'fullscreen' : 'inline');
        return mode();
      },
      log: addLog,
      stopped: (reason) => {
        frames().delete(props.callId);
        mounted = undefined;
        addLog(`stopped: ${reason}`);
        setStopped(reason);
      },
      ready: () => undefined,
    });
  };

  const toggleFullscreen = () => {
    showMode(mode() === 'fullscreen' ? 'inline' : 'fullscreen');
    mounted?.setDisplayMode(mode());
  };
  const allow = async (kind: AppConsentKind) => {
    const server = view()?.server;
    if (server && (await app.guard(() => app.api.allowMcpApp({ server, kind }))) !== undefined) await load();
  };
  // Scrolls in its own box: a tab stop, so the keyboard can scroll it too.
  const fallback = () => (
    <pre class="plain mcp-app-text" tabIndex={0} role="region" aria-label="The tool's text" data-testid="mcp-app-text">
      {props.fallbackText}
    </pre>
  );

  return (
    <div class={`mcp-app ${mode() === 'fullscreen' ? 'fullscreen' : ''}`} ref={root} data-testid="mcp-app" data-call-id={props.callId}>
      <div class="row small mcp-app-head">
        <span class="badge accent">app</span>
        <code class="muted grow mcp-app-uri">{view()?.uri ?? ''}</code>
        <Show when={view()?.allowed && !stopped() && !problem()}>
          <button type="button" class="link small" onClick={() => setAsText(!asText())} data-testid="mcp-app-as-text">
            {asText() ? 'Show the app' : 'Show as text'}
          </button>
          <button type="button" class="link small" ref={fullscreenButton} onClick={toggleFullscreen} aria-pressed={mode() === 'fullscreen'} title={mode() === 'fullscreen' ? 'Back into the chat (Esc)' : undefined}>
            {mode() === 'fullscreen' ? 'Exit fullscreen' : 'Fullscreen'}
          </button>
        </Show>
      </div>
      <Show when={problem() ?? view()?.problem}>
        {(text) => (
          <>
            <div class="small error-text" data-testid="mcp-app-problem">The app cannot be shown: {text()}</div>
            {fallback()}
          </>
        )}
      </Show>
      <Show when={view() && !view()!.allowed && !view()!.problem}>
        <div class="mcp-app-gate stack" data-testid="mcp-app-gate">
          <span class="small">
            <b>{view()!.server}</b> is not a trusted server. Its app would run in a sandbox, apart from Tooldesk, and every tool call it makes asks as usual.
          </span>
          <div class="row">
            <button type="button" class="primary small" onClick={() => void allow('show')} data-testid="mcp-app-show">
              Show this app
            </button>
            <span class="muted small">(for every app of {view()!.server})</span>
          </div>
          {fallback()}
        </div>
      </Show>
      <Show when={stopped()}>
        <div class="mcp-app-stopped stack" role="alert" data-testid="mcp-app-stopped">
          <b>This app was stopped: {stopped()}.</b>
          <div class="row small">
            <button type="button" class="small" onClick={() => void load()}>
              Start it again
            </button>
          </div>
          {fallback()}
        </div>
      </Show>
      <Show when={view()?.allowed && view()?.proxyUrl && !stopped()}>
        <Show when={view()!.permissions.requested.length > 0 && !view()!.permissions.granted}>
          <div class="small warn-text row" data-testid="mcp-app-permissions">
            <span class="grow">It asks for: {view()!.permissions.requested.join(', ')} (not granted).</span>
            <button type="button" class="small" onClick={() => void allow('permissions')}>
              Allow for {view()!.server}
            </button>
          </div>
        </Show>
        <Show when={question()}>
          {(q) => (
            <div class="mcp-app-question card stack" data-testid="mcp-app-question">
              <span class="small">{q().kind === 'messages' ? 'The app wants to send this message to the chat:' : 'The app wants to open this link in your browser:'}</span>
              <pre class="plain">{q().text}</pre>
              <div class="row">
                <button type="button" class="primary small" onClick={() => q().answer(true, q().kind === 'messages')}>
                  {q().kind === 'messages' ? 'Send (and allow its later messages)' : 'Open'}
                </button>
                <Show when={q().kind === 'links'}>
                  <button type="button" class="small" onClick={() => q().answer(true, true)}>
                    Always open its links
                  </button>
                </Show>
                <button type="button" class="small" onClick={() => q().answer(false, false)}>
                  Don't
                </button>
              </div>
            </div>
          )}
        </Show>
        <Show when={waiting()}>
          <div class="small muted">
            {MAX_APP_FRAMES_PER_CHAT} apps are shown in this chat already.{' '}
            <button type="button" class="link small" onClick={() => { setWaiting(false); frames().clear(); void load(); }}>
              Show this one
            </button>
          </div>
        </Show>
        <Show when={context()}>
          {(c) => (
            <details class="small" data-testid="mcp-app-context">
              <summary>
                The model will see {c().chars} characters from this app{c().truncated ? ' (cut: 4000 at most)' : ''}
              </summary>
              <pre class="plain mcp-app-text">{c().text.slice(0, 4000)}</pre>
            </details>
          )}
        </Show>
        <Show when={asText()}>{fallback()}</Show>
        <div class="mcp-app-frame" ref={attach} style={{ height: mode() === 'fullscreen' ? undefined : `${height()}px`, display: asText() ? 'none' : undefined }} />
        <details class="small muted mcp-app-meta">
          <summary>
            {view()!.csp.network.length ? `May reach: ${view()!.csp.network.length} declared origin(s)` : 'No network access'} (its messages: Inspect)
          </summary>
          <ul data-testid="mcp-app-network">
            <For each={view()!.csp.network} fallback={<li>No network access (its CSP: {view()!.csp.policy})</li>}>{(line) => <li>{line}</li>}</For>
            <For each={view()!.csp.dropped}>{(line) => <li class="warn-text">Refused from its _meta.ui.csp: {line}</li>}</For>
          </ul>
        </details>
      </Show>
    </div>
  );
}
