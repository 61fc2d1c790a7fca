// Electron glue: app lifecycle, the main window, binding the API to ipcMain. Thin; all work
// lives in electron/runtime (createRuntime), and the security rules are in small tested helpers.
// The window comes first: the runtime (and electron-store) are imported after it is created.
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, Notification, session, shell, type IpcMainInvokeEvent } from 'electron';
import { IPC_EVENT_CHANNEL, type ApiEvent } from '../../shared/api.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import type { Host } from '../runtime/host/create-host.ts';
import { toolDeskHome } from '../runtime/paths.ts';
import { bindApi, deferredHandlers } from './bind-api.ts';
import { scheduleNotifier } from './schedule-notifications.ts';
import { electronContentSecurityPolicy, isAppUrl, isExternalLink, type AppLocation } from './trusted-url.ts';

app.setName('Tooldesk');
app.setPath('userData', toolDeskHome());

const location: AppLocation = {
  rendererFile: join(__dirname, '../renderer/index.html'),
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
};

let mainWindow: BrowserWindow | null = null;
let runtime: Runtime | null = null;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Tooldesk',
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  if (location.devServerUrl) void win.loadURL(location.devServerUrl);
  else void win.loadFile(location.rendererFile);
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  return win;
}

/** Our own window's top frame showing our own page; nothing else may call the API. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return (
    mainWindow !== null &&
    !mainWindow.isDestroyed() &&
    event.sender === mainWindow.webContents &&
    frame !== null &&
    frame === mainWindow.webContents.mainFrame &&
    isAppUrl(frame.url, location)
  );
}

/**
 * The runtime and its API host, imported and built once the window is up. Without a system
 * keyring, keys typed in Settings are kept for this run only (Settings says so).
 */
async function startRuntime(): Promise<Host> {
  const [{ createRuntime }, { electronStoreBackend }] = await Promise.all([import('../runtime/create-runtime.ts'), import('./electron-store-backend.ts')]);
  const ready = await createRuntime({
    home: toolDeskHome(),
    settingsBackend: electronStoreBackend,
    watchSettings: true,
    sessionSecretsFallback: true,
    // MCP: OAuth sign-in and URL-mode elicitation (after the user agreed in the chat) open the browser.
    tools: {
      watch: true,
      keyEndpoint: true,
      openUrl: (url) =>
        shell.openExternal(url).then(
          () => true,
          () => false,
        ),
    },
  });
  runtime = ready;
  const host = await ready.host({ browserMode: false, version: app.getVersion() });
  // This home's schedules run here unless another instance owns them (then this one stands by).
  await (await ready.scheduler()).start();
  return host;
}

// Every web contents (ours or any that sneaks in): no new windows, no navigation away, no webviews.
const isAppSandboxUrl = (url: string) => /^http:\/\/localhost:\d+\/((proxy|app)\/[A-Za-z0-9_-]+|relay\.js)$/.test(url);

app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url, location)) return;
    event.preventDefault();
    if (isExternalLink(url)) void shell.openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, location)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // Tooldesk uses no WebRTC; an MCP App must not send anything through it (issue 32 §9): no UDP
  // that is not proxied, on top of the app frames' prelude and Permissions-Policy.
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
});

app.whenReady().then(async () => {
  const csp = electronContentSecurityPolicy(location.devServerUrl);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    // MCP Apps' sandbox origin (runtime/apps/app-sandbox-server.ts) sends each app's own CSP: keep it.
    if (isAppSandboxUrl(details.url)) return callback({});
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

  mainWindow = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });

  // The window opens at once; requests wait for the host (loading tools may take a moment).
  const starting = startRuntime();
  bindApi({ ipcMain, handlers: deferredHandlers(starting), isTrustedSender });
  starting.then(
    (ready) => {
      // A scheduled run needs the user (or failed): a desktop notification; a click opens the run's chat.
      const notify = scheduleNotifier({
        Notification,
        openChat: (sessionId) => {
          if (!mainWindow || mainWindow.isDestroyed()) mainWindow = createWindow();
          mainWindow.show();
          mainWindow.webContents.send(IPC_EVENT_CHANNEL, { type: 'schedules.open', sessionId } satisfies ApiEvent);
        },
        log: (message) => console.error(message),
      });
      ready.onEvent((event) => {
        if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(IPC_EVENT_CHANNEL, event);
        notify(event);
      });
    },
    // Every request answers with this error; the window stays up to show it.
    (error: Error) => console.error(`Tooldesk could not start its runtime: ${error.stack ?? error.message}`),
  );
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', (event) => {
  if (!runtime) return;
  const closing = runtime;
  runtime = null;
  event.preventDefault();
  void closing.close().finally(() => app.quit());
});
