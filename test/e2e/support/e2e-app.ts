// One e2e file's world: the fake OpenAI server, a fresh TOOLDESK_HOME, the real runtime in
// browser mode, and one Chromium page on it. `close()` undoes all of it.
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll } from 'vitest';
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import type { Settings } from '../../../shared/settings.ts';
import { startAppServer, type AppServer } from './app-server.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openApp } from './chat-page.ts';
import { makeHome } from './e2e-home.ts';
import { e2eScript } from './fake-model.ts';
import { ensureRendererBuilt } from './renderer-build.ts';

export interface E2EApp {
  fake: FakeOpenAIServer;
  server: AppServer;
  browser: Browser;
  page: Page;
  home: string;
  /** Stops the server process and starts a new one on the same home; the page follows. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface E2EAppOptions {
  fake?: FakeOpenAIOptions;
  provider?: boolean;
  settings?: Partial<Settings>;
  port?: 'remembered';
  env?: NodeJS.ProcessEnv;
}

/** Settings under which `call script_echo …` waits on an approval card. */
export const ECHO_ASKS: Partial<Settings> = { permissionOverrides: { script_echo: { executionPolicy: 'ask-always' } } };

/**
 * The app of one test file: started where the file awaits it (at its top), closed after the
 * file's last test. Each part it starts has its own start-up timeout.
 */
export async function startFileApp(options: E2EAppOptions = {}): Promise<E2EApp> {
  const app = await startE2EApp(options);
  afterAll(() => app.close());
  return app;
}

export async function startE2EApp(options: E2EAppOptions = {}): Promise<E2EApp> {
  await ensureRendererBuilt();
  const fake = await startFakeOpenAI({ script: e2eScript, ...options.fake });
  const home = makeHome({ ...(options.provider === false ? {} : { providerUrl: fake.url }), ...(options.settings ? { settings: options.settings } : {}) });
  const [server, browser] = await Promise.all([startAppServer({ home, ...(options.port ? { port: options.port } : {}), ...(options.env ? { env: options.env } : {}) }), launchBrowser()]);
  const page = await browser.newPage();
  await openApp(page, server.url);
  const app: E2EApp = {
    fake,
    server,
    browser,
    page,
    home,
    async restart() {
      await app.server.stop();
      app.server = await startAppServer({ home, ...(options.env ? { env: options.env } : {}) });
      await openApp(page, app.server.url);
    },
    async close() {
      await browser.close();
      await app.server.stop();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
  return app;
}
