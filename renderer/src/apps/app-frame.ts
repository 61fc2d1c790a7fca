// One app in its frame, wired to the host bridge of @modelcontextprotocol/ext-apps: the frame is
// the sandbox proxy on the runtime's sandbox origin (sandboxed, never same-origin with Tooldesk),
// the bridge speaks the spec's JSON-RPC over postMessage with it, and every request the app makes
// goes to `handlers` (which go through the runtime's gates). Bounded: messages (rate and size,
// counted before the bridge reads them), the time to start, and a heartbeat that stops an app
// stuck in a loop.
import { AppBridge, PostMessageTransport, type McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { AppToolCallResult, McpAppView } from '../../../shared/mcp-apps.ts';
import { createMessageBudget } from './app-message-budget.ts';
import { watchAppMessages } from './watch-app-messages.ts';

export interface AppFrameHandlers {
  callTool(name: string, args: Record<string, unknown>): Promise<AppToolCallResult>;
  readResource(uri: string): Promise<{ contents: unknown[] }>;
  /** Contract: resolves true when the message went to the chat (after the user's confirmation). */
  message(text: string): Promise<boolean>;
  openLink(url: string): Promise<boolean>;
  /** `ui/update-model-context`: the text the model gets on its next request (empty clears). */
  updateContext(text: string): Promise<void>;
  size(height: number | undefined): void;
  displayMode(mode: McpUiDisplayMode): McpUiDisplayMode;
  /** A line for the app's message log (Inspect). */
  log(line: string): void;
  /** Contract: called once when the app is stopped (over a bound, never started, stopped answering). */
  stopped(reason: string): void;
  ready(): void;
}

export const APP_START_TIMEOUT_MS = 15_000;
export const APP_HEARTBEAT_MS = 10_000;
const SANDBOX = 'allow-scripts allow-forms';

export interface MountedApp {
  readonly frame: HTMLIFrameElement;
  setDisplayMode(mode: McpUiDisplayMode): void;
  dispose(): void;
}

const textOf = (content: unknown[]): string =>
  content.map((b) => (b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' ? String((b as { text?: unknown }).text ?? '') : '')).filter(Boolean).join('\n');

export function mountAppFrame(container: HTMLElement, view: McpAppView, handlers: AppFrameHandlers): MountedApp {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', SANDBOX);
  frame.setAttribute('allow', view.allow);
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.title = `App of ${view.server ?? 'a tool'}: ${view.uri}`;
  frame.dataset.testid = 'mcp-app-frame';
  container.append(frame);
  let disposed = false;
  let initialized = false;
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  const stop = (reason: string) => {
    if (disposed) return;
    mounted.dispose();
    handlers.stopped(reason);
  };
  const unwatch = watchAppMessages(window, () => frame.contentWindow, createMessageBudget(), stop);
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches;
  const bridge = new AppBridge(
    null,
    { name: 'Tooldesk', version: '1' },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} }, sandbox: { csp: {}, permissions: {} } },
    { hostContext: { theme: dark ? 'dark' : 'light', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'], containerDimensions: { maxHeight: 720 }, locale: navigator.language } },
  );
  bridge.oncalltool = async (params) => {
    handlers.log(`tools/call ${params.name} ${JSON.stringify(params.arguments ?? {}).slice(0, 200)}`);
    return (await handlers.callTool(params.name, (params.arguments ?? {}) as Record<string, unknown>)) as CallToolResult;
  };
  bridge.onreadresource = async (params) => {
    handlers.log(`resources/read ${params.uri}`);
    return (await handlers.readResource(params.uri)) as never;
  };
  bridge.onmessage = async (params) => {
    const text = textOf(Array.isArray(params.content) ? params.content : []);
    handlers.log(`ui/message ${text.slice(0, 200)}`);
    return (await handlers.message(text)) ? {} : { isError: true };
  };
  bridge.onopenlink = async ({ url }) => {
    handlers.log(`ui/open-link ${url}`);
    return (await handlers.openLink(url)) ? {} : { isError: true };
  };
  bridge.onupdatemodelcontext = async (params) => {
    const structured = params.structuredContent === undefined ? '' : JSON.stringify(params.structuredContent);
    const text = [textOf(Array.isArray(params.content) ? params.content : []), structured].filter(Boolean).join('\n');
    handlers.log(`ui/update-model-context ${text.length} characters`);
    await handlers.updateContext(text);
    return {};
  };
  bridge.onsizechange = ({ height }) => handlers.size(height);
  bridge.onrequestdisplaymode = async ({ mode }) => ({ mode: handlers.displayMode(mode) });
  bridge.onloggingmessage = ({ level, data }) => handlers.log(`log ${level}: ${typeof data === 'string' ? data : JSON.stringify(data)}`.slice(0, 500));
  bridge.onrequestteardown = () => stop('it asked to be closed');
  bridge.oninitialized = () => {
    initialized = true;
    handlers.log('initialized');
    handlers.ready();
    void bridge.sendToolInput({ arguments: view.toolInput }).catch(() => {});
    void bridge.sendToolResult(view.toolResult as CallToolResult).catch(() => {});
    const beat = () => {
      if (disposed) return;
      bridge.request({ method: 'ping' }, { timeout: APP_HEARTBEAT_MS / 2 }).then(
        () => timers.push(setTimeout(beat, APP_HEARTBEAT_MS)),
        () => stop('it stopped answering (it may be stuck in a loop)'),
      );
    };
    timers.push(setTimeout(beat, APP_HEARTBEAT_MS));
  };
  const win = frame.contentWindow!;
  void bridge
    .connect(new PostMessageTransport(win, win))
    .then(() => {
      if (disposed) return;
      frame.src = view.proxyUrl!;
      timers.push(setTimeout(() => !initialized && stop(`it did not start within ${APP_START_TIMEOUT_MS / 1000} s`), APP_START_TIMEOUT_MS));
    })
    .catch((error: unknown) => stop(`the connection to it failed: ${error instanceof Error ? error.message : String(error)}`));

  const mounted: MountedApp = {
    frame,
    setDisplayMode(mode) {
      if (initialized) bridge.sendHostContextChange({ displayMode: mode });
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const t of timers) clearTimeout(t);
      unwatch();
      void bridge.close().catch(() => {});
      frame.remove();
    },
  };
  return mounted;
}
