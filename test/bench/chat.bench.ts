// The chat engine: opening a big session (5 000 messages, 1 000 variables) and what it keeps in
// memory; throughput of the streaming parser (openai client + our event assembly) against the
// fake server over real HTTP on 127.0.0.1.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '../../shared/chat.ts';
import type { Variable } from '../../shared/variables.ts';
import { SessionManager } from '../../electron/runtime/chat/persistence/session-manager.ts';
import type { ToolGroup } from '../../electron/runtime/tools/types.ts';
import type { SessionRecord } from '../../electron/runtime/chat/persistence/session-records.ts';
import { createOpenAICompatibleProvider } from '../../electron/runtime/llm/openai-compatible-provider.ts';
import { openSettingsStore } from '../../electron/runtime/store/settings-store.ts';
import { startFakeOpenAI, type FakeTurn } from '../support/fake-openai-server.ts';
import { gc, percentile, report } from './report.ts';

const MESSAGES = 5000;
const VARIABLES = 1000;


function writeBigSession(dir: string, id: string): string {
  const records: SessionRecord[] = [{ t: 'session', v: 1, id, createdAt: 1, title: 'big' }];
  const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8);
  for (let i = 0; i < MESSAGES; i++) {
    const at = 1000 + i;
    let message: ChatMessage;
    if (i % 4 === 0) message = { id: `m${i}`, createdAt: at, role: 'user', content: `question ${i}: ${text.slice(0, 120)}` };
    else if (i % 4 === 1) message = { id: `m${i}`, createdAt: at, role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'search', args: { q: `q${i}` }, rawArguments: `{"q":"q${i}"}` }] };
    else if (i % 4 === 2) message = { id: `m${i}`, createdAt: at, role: 'tool', callId: `c${i - 1}`, toolName: 'search', args: { q: `q${i}` }, content: text, result: { status: 'SUCCESS', finalText: text, callId: `c${i - 1}` } };
    else message = { id: `m${i}`, createdAt: at, role: 'assistant', content: text, stopReason: 'stop' };
    records.push({ t: 'message', at, message });
  }
  const value = 'v'.repeat(2048);
  for (let i = 0; i < VARIABLES; i++) {
    const variable: Variable = { name: `search_c${i}_result`, value: `${i}:${value}`, type: 'ToolCallResult', tags: ['search'], size: value.length, createdAt: i, updatedAt: i, accessedAt: i };
    records.push({ t: 'var', at: 10_000 + i, variable });
  }
  const file = join(dir, `${id}.jsonl`);
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

async function openBigSession(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'td-bench-'));
  mkdirSync(join(home, 'sessions'));
  const file = writeBigSession(join(home, 'sessions'), 'big-session');
  const settings = openSettingsStore(home);
  const times: number[] = [];
  for (let run = 0; run < 7; run++) {
    const manager = new SessionManager({ home, settings });
    const start = performance.now();
    const session = manager.open('big-session');
    times.push(performance.now() - start);
    if (session.messages().length !== MESSAGES || session.tools.variables.size !== VARIABLES) throw new Error('bench: session did not restore fully');
    manager.closeAll();
  }
  times.sort((a, b) => a - b);
  report(statSync(file).size / 1024 / 1024, 'MB', `session file: ${MESSAGES} messages + ${VARIABLES} variables (2 KB each)`);
  report(percentile(times, 50), 'ms', 'open that session (replay, restore variables, executor) — median of 7');
  report(times[0]!, 'ms', 'open that session — fastest');

  gc();
  const before = process.memoryUsage().heapUsed;
  const manager = new SessionManager({ home, settings });
  const session = manager.open('big-session');
  gc();
  const after = process.memoryUsage().heapUsed;
  report((after - before) / 1024 / 1024, 'MB', `heap held by the open session (${session.messages().length} messages, ${session.tools.variables.size} variables)`);
  manager.closeAll();
  settings.close();
  rmSync(home, { recursive: true, force: true });
}

/** A session whose one tool returned 20 MB: what its file holds, and how long it takes to open. */
async function bigResultSession(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'td-bench-'));
  const settings = openSettingsStore(home);
  settings.set('groupDefaults', { bench: true });
  const mb = 20;
  const group: ToolGroup = {
    name: 'bench',
    tools: [
      {
        definition: { type: 'function', function: { name: 'huge', parameters: { type: 'object' } } },
        permission: { executionPolicy: 'auto' },
        execute: async () => ({ data: 'line of output text\n'.repeat((mb * 1024 * 1024) / 20) }),
      },
    ],
  };
  const manager = new SessionManager({ home, settings, tools: { groups: () => [group] } });
  const session = manager.create();
  session.onEvent(() => {});
  await (session.send('/huge') as { done: Promise<unknown> }).done;
  const id = session.id;
  manager.closeAll();
  const size = statSync(join(manager.dir, `${id}.jsonl`)).size;
  const again = new SessionManager({ home, settings, tools: { groups: () => [group] } });
  const start = performance.now();
  again.open(id);
  const ms = performance.now() - start;
  report(size / 1024 / 1024, 'MB', `session file after one ${mb} MB tool result (the text once, in its variable; the message keeps ≤ 64 K)`);
  report(ms, 'ms', 'open that session');
  again.closeAll();
  settings.close();
  rmSync(home, { recursive: true, force: true });
}

async function streamThroughput(): Promise<void> {
  const text = 'The quick brown fox jumps over the lazy dog — ünïcödé ✓ 😀. '.repeat(80_000); // ≈ 5 MB
  const shortText = text.slice(0, text.length / 4);
  const args = JSON.stringify({ content: 'x"y\\z é😀 '.repeat(60_000) }); // ≈ 1 MB of escaped JSON
  const turns: FakeTurn[] = [
    { text, deltaChars: 64 },
    { text, deltaChars: 64 },
    { text: shortText, deltaChars: 8 },
    { toolCalls: [{ name: 'write', arguments: args }], deltaChars: 16 },
  ];
  // The server runs in this process too: the raw-fetch line is the baseline (server + HTTP, no
  // parsing); the difference to the next line is what the client's parsing costs.
  const server = await startFakeOpenAI({ turns });
  {
    const start = performance.now();
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [], stream: true }) });
    let bytes = 0;
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length;
    const seconds = (performance.now() - start) / 1000;
    report(bytes / 1024 / 1024 / seconds, 'MB/s', `baseline: raw fetch of the SSE body, no parsing (${(bytes / 1024 / 1024).toFixed(1)} MB on the wire)`);
  }
  const provider = createOpenAICompatibleProvider({ config: { id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: server.url, model: 'fake-model' } });
  const measure = async (label: string, content: string, isArgs = false) => {
    const start = performance.now();
    let chars = 0;
    let events = 0;
    for await (const event of provider.stream({ messages: [{ role: 'user', content: 'go' }] })) {
      events++;
      if (event.type === 'text-delta') chars += event.text.length;
      if (event.type === 'tool-call-end') chars += event.call.arguments.length;
      if (event.type === 'error') throw new Error(event.error.message);
    }
    const seconds = (performance.now() - start) / 1000;
    if (chars !== content.length) throw new Error(`bench: got ${chars} characters, expected ${content.length}`);
    const mb = Buffer.byteLength(content) / 1024 / 1024;
    report(mb / seconds, 'MB/s', `${label}: ${mb.toFixed(1)} MB of ${isArgs ? 'arguments' : 'text'} (${Math.round(events / seconds)} events/s)`);
  };
  await measure('provider stream, 64-character text deltas', text);
  await measure('provider stream, 8-character text deltas', shortText);
  await measure('provider stream, tool-call arguments in 16-character deltas', args, true);
  await server.close();
}

export async function run(): Promise<void> {
  await openBigSession();
  await bigResultSession();
  await streamThroughput();
}
