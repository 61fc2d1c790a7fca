// Real `tooldesk serve` processes on fresh homes, for tests that stop and start the process that
// owns a home (schedules). Call useServeHomes() at a test file's top level: it registers the
// hooks — the renderer built and the fake model started before the file, every server stopped and
// every home removed after each test, the fake model closed after the file.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startAppServer, type AppServer } from '../e2e/support/app-server.ts';
import { makeHome } from '../e2e/support/e2e-home.ts';
import { e2eScript } from '../e2e/support/fake-model.ts';
import { ensureRendererBuilt } from '../e2e/support/renderer-build.ts';
import { startFakeOpenAI, type FakeOpenAIServer } from './fake-openai-server.ts';

export interface ServeHomes {
  /** The fake model every home talks to (the e2e script). */
  fake(): FakeOpenAIServer;
  /** A new home (the e2e tools, the fake model as its provider), removed after the test. */
  home(): string;
  /** Starts `tooldesk serve` on `home`, stopped after the test. */
  serve(home: string): Promise<AppServer>;
}

export function useServeHomes(): ServeHomes {
  let fake: FakeOpenAIServer | undefined;
  const servers: AppServer[] = [];
  const homes: string[] = [];
  beforeAll(async () => {
    await ensureRendererBuilt();
    fake = await startFakeOpenAI({ script: e2eScript });
  }, 180_000);
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const started = (): FakeOpenAIServer => {
    if (!fake) throw new Error('useServeHomes(): the fake model starts in beforeAll; call this from a test');
    return fake;
  };
  return {
    fake: started,
    home() {
      const home = makeHome({ providerUrl: started().url });
      homes.push(home);
      return home;
    },
    async serve(home) {
      const server = await startAppServer({ home });
      servers.push(server);
      return server;
    },
  };
}
