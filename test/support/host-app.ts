// The real host behind the real browser-mode server, with the renderer's own WebSocket client:
// what the app talks to, for integration tests. Everything started is closed by closeAll().
import WebSocket from 'ws';
import type { ApiEvent } from '../../shared/api.ts';
import { createRuntime, type RuntimeOptions } from '../../electron/runtime/create-runtime.ts';
import type { Host, HostOptions } from '../../electron/runtime/host/create-host.ts';
import { startBrowserServer, type BrowserServer } from '../../electron/runtime/host/transport/server.ts';
import { SecretStore, sessionBackend } from '../../electron/runtime/store/secret-store.ts';
import { createWsClient, type SocketLike, type WsClient } from '../../renderer/src/api/ws-client.ts';

/** A runtime and its host as the app builds them; closing the host closes the runtime. */
export async function startHost(options: RuntimeOptions & HostOptions & { watchTools?: boolean }): Promise<Omit<Host, 'close'> & { close(): Promise<void> }> {
  const { browserMode, version, providers, watchTools, ...runtimeOptions } = options;
  const runtime = await createRuntime({ tools: { watch: watchTools ?? false }, ...runtimeOptions });
  const host = await runtime.host({ browserMode, ...(version ? { version } : {}), ...(providers ? { providers } : {}) });
  return { ...host, onEvent: host.onEvent, close: () => runtime.close() };
}

export interface HostApp {
  host: Awaited<ReturnType<typeof startHost>>;
  server: BrowserServer;
  client: WsClient;
  /** Every event the client received, in order. */
  events: ApiEvent[];
}

export function hostApps() {
  const open: { close(): unknown }[] = [];
  return {
    async start(home: string, options: { watchTools?: boolean } = {}): Promise<HostApp> {
      const host = await startHost({ home, browserMode: true, secrets: new SecretStore({ keyring: sessionBackend() }), watchTools: options.watchTools ?? false });
      open.push(host);
      const server = await startBrowserServer({ host });
      open.push(server);
      const client = createWsClient({ url: server.socketUrl, createSocket: (url) => new WebSocket(url) as unknown as SocketLike });
      open.push(client);
      const events: ApiEvent[] = [];
      client.onEvent((e) => events.push(e));
      return { host, server, client, events };
    },
    /** Closes what was started, newest first (a restart test calls it mid-test). */
    async closeAll(): Promise<void> {
      for (const item of open.splice(0).reverse()) await item.close();
    },
  };
}
