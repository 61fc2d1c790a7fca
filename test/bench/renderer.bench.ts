// Renderer benchmarks in Debian's Chromium: first paint of a 5 000-message session, and frame
// times while an assistant message streams at 2 000 tokens/s. The first two use the real built
// renderer with an in-page bridge (window.tooldesk, as Electron's preload provides), so they
// measure the renderer alone: the reducer, the virtualised list and Markdown. The last one runs
// the whole path: the fake OpenAI server streams, the runtime relays over the WebSocket.
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { serveStatic } from '../../electron/runtime/host/transport/static-files.ts';
import { rendererOutDir } from '../../electron/cli/serve/renderer-build.ts';
import { ensureRendererBuilt } from '../e2e/support/renderer-build.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { startFakeOpenAI } from '../support/fake-openai-server.ts';
import { startAppServer } from '../e2e/support/app-server.ts';
import { makeHome } from '../e2e/support/e2e-home.ts';
import { percentile, report } from './report.ts';

const MESSAGES = 5000;
const TOKENS_PER_SECOND = 2000;
const STREAM_SECONDS = 3;

/** Runs in the page before the app: a window.tooldesk bridge serving one big session. */
function installBridge(options: { messages: number }) {
  const session = { id: 'bench', title: 'Benchmark session', createdAt: 1, updatedAt: 2, messageCount: options.messages };
  const messages: unknown[] = [];
  for (let i = 0; i < options.messages; i++) {
    messages.push(
      i % 2 === 0
        ? { role: 'user', id: `m${i}`, createdAt: i, content: `Question ${i}: how do I list the files in a folder?` }
        : {
            role: 'assistant',
            id: `m${i}`,
            createdAt: i,
            content: `Answer ${i}. Use **ls** or, in Python:\n\n\`\`\`python\nimport os\nprint(os.listdir("."))\n\`\`\`\n\n- one\n- two`,
          },
    );
  }
  const listeners = new Set<(e: unknown) => void>();
  const answers: Record<string, unknown> = {
    listSessions: [session],
    openSession: { session, messages, pendingApprovals: [], running: false },
    listTools: { groups: [], diagnostics: [] },
    getSettings: {
      providers: [{ id: 'p', name: 'p', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm' }],
      activeProviderId: 'p',
      systemPrompt: '',
      toolRoots: [],
      wellKnownRoots: { agenvoyHome: false, agenvoyProject: false, ompHome: false, ompProject: false },
      groupDefaults: {},
      toolDefaults: {},
      permissionOverrides: {},
      sandbox: { mode: 'auto', perTool: {}, allowHomeWrite: false },
      limits: {},
      pythonPath: null,
      extraEnv: {},
      workingDir: null,
      agenvoyKeyCompat: false,
    },
    searchSessions: [],
    listVariables: [],
    detectLocalProviders: [],
  };
  const bridge = new Proxy(
    {},
    {
      get(_t, name: string) {
        if (name === 'onEvent')
          return (listener: (e: unknown) => void) => {
            listeners.add(listener);
            return () => listeners.delete(listener);
          };
        if (name === 'then') return undefined;
        return async () => ({ ok: true, value: name in answers ? answers[name] : null });
      },
    },
  );
  (window as unknown as { tooldesk: unknown }).tooldesk = bridge;
  (window as unknown as { __emit: (e: unknown) => void }).__emit = (e) => listeners.forEach((l) => l(e));
}

async function firstPaint(page: Page, url: string): Promise<{ ms: number; rowsInDom: number }> {
  await page.goto(url, { waitUntil: 'commit' });
  return page.evaluate(
    () =>
      new Promise<{ ms: number; rowsInDom: number }>((resolve) => {
        const done = () => requestAnimationFrame(() => resolve({ ms: performance.now(), rowsInDom: document.querySelectorAll('.message-row').length }));
        const check = () => document.querySelector('[data-testid="row-assistant"]') !== null;
        if (check()) return done();
        const observer = new MutationObserver(() => {
          if (check()) {
            observer.disconnect();
            done();
          }
        });
        observer.observe(document, { childList: true, subtree: true });
      }),
  );
}

/** Streams TOKENS_PER_SECOND tokens into a new assistant message and records frame intervals. */
async function streamFrames(page: Page): Promise<number[]> {
  return page.evaluate(
    ({ tps, seconds }) =>
      new Promise<number[]>((resolve) => {
        const emit = (window as unknown as { __emit: (e: unknown) => void }).__emit;
        emit({ type: 'session.turn', sessionId: 'bench', turnId: 't', state: 'started' });
        const words = ['the ', 'quick ', 'brown ', 'fox ', 'jumps ', 'over ', '`lazy` ', '**dogs** ', '\n\n', '- item '];
        const tickMs = 10;
        let sent = 0;
        const started = performance.now();
        const timer = setInterval(() => {
          const due = Math.floor(((performance.now() - started) / 1000) * tps) - sent;
          for (let i = 0; i < due; i++) {
            emit({ type: 'session.delta', sessionId: 'bench', messageId: 'streaming', text: words[sent % words.length] });
            sent++;
          }
        }, tickMs);
        const frames: number[] = [];
        let last = performance.now();
        const frame = (now: number) => {
          frames.push(now - last);
          last = now;
          if (now - started < seconds * 1000) requestAnimationFrame(frame);
          else {
            clearInterval(timer);
            (window as unknown as { __sent: number }).__sent = sent;
            resolve(frames.slice(1));
          }
        };
        requestAnimationFrame(frame);
      }),
    { tps: TOKENS_PER_SECOND, seconds: STREAM_SECONDS },
  );
}

function frameFigures(frames: number[]): { max: number; p95: number; dropped: number; total: number } {
  const budget = 1000 / 60;
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    max: sorted.at(-1) ?? NaN,
    p95: percentile(sorted, 95),
    dropped: frames.reduce((n, f) => n + Math.max(0, Math.round(f / budget) - 1), 0),
    total: Math.round(frames.reduce((a, b) => a + b, 0) / budget),
  };
}

/** The whole path: fake server → runtime (browser mode) → WebSocket → renderer. */
async function streamFromFakeServer(browser: Awaited<ReturnType<typeof launchBrowser>>): Promise<void> {
  const words = ['the ', 'quick ', 'brown ', 'fox ', 'jumps ', 'over ', 'the ', '`lazy` ', '**dog** ', 'and ', 'keeps ', 'running', '.\n\n'];
  let text = '';
  for (let i = 0; text.length < STREAM_SECONDS * TOKENS_PER_SECOND * 4; i++) text += words[i % words.length];
  // 20 characters every 2 ms (plus timer slack) ≈ 2 000 tokens/s at 4 characters a token;
  // the figure printed is the rate measured in the page.
  const fake = await startFakeOpenAI({ script: () => ({ text, deltaChars: 20, delayMs: 2 }) });
  const home = makeHome({ providerUrl: fake.url });
  const server = await startAppServer({ home });
  const page = await browser.newPage();
  try {
    await page.goto(server.url);
    await page.getByTestId('composer').waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __frames: [number, number][]; __stop: boolean };
      w.__frames = [];
      w.__stop = false;
      const loop = (t: number) => {
        const streaming = document.querySelector('[data-streaming="true"]');
        w.__frames.push([t, streaming ? (streaming.textContent?.length ?? 0) : -1]);
        if (!w.__stop) requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
    });
    await page.getByTestId('composer').fill('stream please');
    await page.getByTestId('composer').press('Enter');
    await page.locator('[data-testid="assistant-message"][data-streaming="false"]').waitFor({ timeout: 60_000 });
    const samples = await page.evaluate(() => {
      const w = window as unknown as { __frames: [number, number][]; __stop: boolean };
      w.__stop = true;
      return w.__frames;
    });
    const during = samples.filter(([, chars]) => chars >= 0);
    const frames = during.slice(1).map(([t], i) => t - during[i]![0]);
    const seconds = (during.at(-1)![0] - during[0]![0]) / 1000;
    const chars = during.at(-1)![1] - during[0]![1];
    const f = frameFigures(frames);
    report(chars / 4 / seconds, 'tokens/s', `fake server → runtime → WebSocket → renderer (${(seconds).toFixed(1)} s of streaming)`);
    report(f.max, 'ms', 'max frame time while the fake server streams');
    report(f.p95, 'ms', 'p95 frame time while the fake server streams');
    report(f.dropped, 'frames', `dropped at 60 Hz while the fake server streams (of ${f.total})`);
  } finally {
    await page.close();
    await server.stop();
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  await ensureRendererBuilt();
  const root = rendererOutDir();
  const http = createServer((req, res) => void serveStatic(root, req, res, (http.address() as AddressInfo).port));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
  const browser = await launchBrowser();
  // tsx keeps function names with a `__name` helper; functions sent to the page need it too.
  await browser.context.addInitScript('globalThis.__name = (f) => f;');
  try {
    const paints: number[] = [];
    let rowsInDom = 0;
    for (let i = 0; i < 4; i++) {
      const page = await browser.newPage();
      await page.addInitScript(installBridge, { messages: MESSAGES });
      const result = await firstPaint(page, url);
      if (i > 0) paints.push(result.ms); // the first run warms the HTTP cache
      rowsInDom = result.rowsInDom;
      await page.close();
    }
    paints.sort((a, b) => a - b);
    report(percentile(paints, 50), 'ms', `first paint of a ${MESSAGES.toLocaleString('en')}-message session (median of ${paints.length}, from navigation)`);
    report(rowsInDom, 'rows', `message rows in the DOM for ${MESSAGES.toLocaleString('en')} messages (windowed)`);

    const page = await browser.newPage();
    await page.addInitScript(installBridge, { messages: 200 });
    await firstPaint(page, url);
    const frames = await streamFrames(page);
    const sent = await page.evaluate(() => (window as unknown as { __sent: number }).__sent);
    const budget = 1000 / 60;
    const dropped = frames.reduce((n, f) => n + Math.max(0, Math.round(f / budget) - 1), 0);
    const sorted = [...frames].sort((a, b) => a - b);
    report(sent / STREAM_SECONDS, 'tokens/s', `streamed into one assistant message for ${STREAM_SECONDS} s`);
    report(sorted.at(-1) ?? NaN, 'ms', 'max frame time while streaming');
    report(percentile(sorted, 95), 'ms', 'p95 frame time while streaming');
    report(dropped, 'frames', `dropped at 60 Hz while streaming (of ${Math.round((STREAM_SECONDS * 1000) / budget)})`);
    await page.close();

    await streamFromFakeServer(browser);
  } finally {
    await browser.close();
    http.close();
  }
}
