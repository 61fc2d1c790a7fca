// The module tool host: a Node child process, started by the app inside the tool sandbox, that
// loads module tools (TS/JS, pi / oh-my-pi extensions) and runs them. User code runs here only,
// never in the app. It speaks the JSON-lines protocol of host-protocol.ts on stdin/stdout; what
// modules print (console.log, process.stdout) goes to stderr so it cannot break the protocol.
// argv[2]: JSON { cacheDir: string | null, bridges: Record<BridgeName, string> }.
import { AsyncLocalStorage } from 'node:async_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ToolUpdate } from '../../../../../shared/tools.ts';
import type { Tool, ToolRunResult } from '../../../tools/types.ts';
import type { HostEnv } from '../host-api.ts';
import { MAX_CALL_OUTPUT_CHARS, MAX_LINE_BYTES, type ExecReply, type FromHost, type HostToolInfo, type ToHost } from '../host-protocol.ts';
import { shimValues, type BridgeName } from '../shim/shim-bridges.ts';
import { fastModuleTransform } from '../transform.ts';
import { jitiPerAlias, loadModuleEntry } from './load-entry.ts';
import { cachedTransform } from './transform-cache.ts';

const config = JSON.parse(process.argv[2] ?? '{}') as { cacheDir?: string | null; bridges: Record<BridgeName, string> };

// The protocol owns the real stdout; everything else written there goes to stderr instead.
// What is written in a call's async context is also sent to the app for that call's Inspect panel.
const protocolWrite = process.stdout.write.bind(process.stdout);
const stderrWrite = process.stderr.write.bind(process.stderr);

interface CallOutput {
  id: number;
  /** The call's id: an exec() asked in this context names it (the app checks it, exec-binding.ts). */
  callId: string;
  sent: { stdout: number; stderr: number };
  cut: { stdout: number; stderr: number };
}
const callOutput = new AsyncLocalStorage<CallOutput>();

function capture(stream: 'stdout' | 'stderr', chunk: unknown): void {
  const call = callOutput.getStore();
  if (!call) return;
  const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
  const room = MAX_CALL_OUTPUT_CHARS - call.sent[stream];
  if (room > 0) {
    send({ t: 'output', id: call.id, stream, text: text.slice(0, room) });
    call.sent[stream] += Math.min(room, text.length);
  }
  if (text.length > room) call.cut[stream] += text.length - Math.max(room, 0);
}

process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
  capture('stdout', chunk);
  return (stderrWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stdout.write;
process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
  capture('stderr', chunk);
  return (stderrWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stderr.write;

function send(message: FromHost): void {
  let line = safeStringify(message);
  if (Buffer.byteLength(line) > MAX_LINE_BYTES && message.t === 'result') {
    line = safeStringify({ t: 'result', id: message.id, result: { status: 'ERROR', error: `the tool's result is larger than ${MAX_LINE_BYTES / 1024 / 1024} MB` } });
  }
  queueLine(line);
  // Only load answers wait: a call's progress, output, exec requests and result go out at once
  // (with the answers queued before them), whatever the tool does next.
  if (message.t !== 'loaded') flush();
}

// Load answers go out in batches: each pipe write wakes the app, and 300 module loads spent more
// time writing one answer each than loading (50–100 µs a write on a small VM). A batch is written
// when the host has nothing more to do at once, when it is large, and before a load that starts
// over 50 ms after the last batch (so a slow module never holds back the answers before it for
// long). A module that takes the host down can take the unsent answers with it: the app then loads
// the unanswered modules again in `careful` loads, before each of which everything is written.
const BATCH_BYTES = 60 * 1024;
const BATCH_MAX_AGE_MS = 50;
let batch: string[] = [];
let batchBytes = 0;
let flushQueued = false;
let flushedAt = performance.now();

function queueLine(line: string): void {
  batch.push(line, '\n');
  batchBytes += line.length + 1;
  if (batchBytes >= BATCH_BYTES) flush();
  else if (!flushQueued) {
    flushQueued = true;
    setImmediate(flush);
  }
}

function flush(): void {
  flushQueued = false;
  flushedAt = performance.now();
  if (batch.length === 0) return;
  const text = batch.join('');
  batch = [];
  batchBytes = 0;
  protocolWrite(text);
}

// process.exit() from a module, or the end of stdin: what is queued still goes out.
process.on('exit', flush);

// A module's stray async failure must not take every other tool of this host down with it.
process.on('uncaughtException', (error) => process.stderr.write(`tool host: uncaught ${describe(error)}\n`));
process.on('unhandledRejection', (error) => process.stderr.write(`tool host: unhandled rejection ${describe(error)}\n`));

const loads = new Map<number, Map<string, Tool>>();
const running = new Map<number, AbortController>();
const execs = new Map<number, (reply: ExecReply) => void>();
let nextExecId = 1;

const baseTransform = fastModuleTransform();
const transform = baseTransform && cachedTransform(baseTransform, config.cacheDir ?? null);
const scratchDir = join(tmpdir(), 'tooldesk-jiti');
const jiti = jitiPerAlias();

function hostEnv(workingDir: string, loadId: number): HostEnv {
  return {
    workingDir,
    exec(request, signal) {
      const id = nextExecId++;
      return new Promise<ExecReply>((resolve) => {
        const onAbort = () => send({ t: 'exec-cancel', id });
        execs.set(id, (reply) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        const call = callOutput.getStore();
        send({ t: 'exec', id, loadId, request, ...(call ? { executeId: call.id, callId: call.callId } : {}) });
        if (signal?.aborted) onAbort();
      });
    },
  };
}

async function handle(message: ToHost): Promise<void> {
  switch (message.t) {
    case 'load': {
      const loaded = await loadModuleEntry(message.entry, {
        env: hostEnv(message.workingDir, message.loadId),
        bridges: config.bridges,
        ...(transform ? { transform } : {}),
        jiti,
        scratchDir,
        factoryTimeoutMs: message.factoryTimeoutMs,
        ...(message.maxSourceBytes ? { maxSourceBytes: message.maxSourceBytes } : {}),
      }).catch((error: unknown) => ({
        tools: [],
        diagnostics: [{ severity: 'error' as const, file: message.entry.path, message: `Cannot load module: ${describe(error)}`, code: 'module-load-failed' }],
      }));
      loads.set(message.loadId, new Map(loaded.tools.map((t) => [t.key, t.tool])));
      const tools: HostToolInfo[] = loaded.tools.map(({ key, tool }) => ({
        key,
        file: tool.source?.file ?? message.entry.path,
        definition: tool.definition,
        meta: tool.meta ?? {},
        ...(tool.secrets ? { secrets: tool.secrets } : {}),
        hasOnSession: typeof tool.onSession === 'function',
      }));
      send({ t: 'loaded', id: message.id, tools, diagnostics: loaded.diagnostics });
      return;
    }
    case 'execute': {
      const tool = loads.get(message.loadId)?.get(message.key);
      if (!tool) {
        send({ t: 'result', id: message.id, result: { status: 'ERROR', error: 'this tool is not loaded in its tool host any more; reload the tools' } });
        return;
      }
      const controller = new AbortController();
      running.set(message.id, controller);
      const output: CallOutput = { id: message.id, callId: message.callId, sent: { stdout: 0, stderr: 0 }, cut: { stdout: 0, stderr: 0 } };
      let result: ToolRunResult;
      try {
        result = await callOutput.run(output, () =>
          tool.execute(message.args ?? {}, {
            callId: message.callId,
            sessionId: message.sessionId,
            signal: controller.signal,
            onUpdate: (update: ToolUpdate) => send({ t: 'update', id: message.id, update }),
          }),
        );
      } catch (error) {
        result = { status: 'ERROR', error: describe(error) };
      } finally {
        running.delete(message.id);
      }
      for (const stream of ['stdout', 'stderr'] as const) {
        if (output.cut[stream] > 0) send({ t: 'output', id: message.id, stream, text: '', cut: output.cut[stream] });
      }
      send({ t: 'result', id: message.id, result });
      return;
    }
    case 'session': {
      const tool = loads.get(message.loadId)?.get(message.key);
      try {
        await tool?.onSession?.(message.event);
        send({ t: 'done', id: message.id });
      } catch (error) {
        send({ t: 'done', id: message.id, error: describe(error) });
      }
      return;
    }
    case 'cancel':
      running.get(message.id)?.abort();
      return;
    case 'release':
      loads.delete(message.loadId);
      return;
    case 'exec-reply': {
      const resolve = execs.get(message.id);
      execs.delete(message.id);
      resolve?.(message.reply);
      return;
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'an unprintable error';
  }
}

/** JSON that survives what tools return: BigInt, cycles, getters that throw. */
function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch (error) {
    const message = value as { t?: string; id?: number };
    if (message.t === 'result') return JSON.stringify({ t: 'result', id: message.id, result: { status: 'ERROR', error: `the tool's result cannot be sent as JSON: ${describe(error)}` } });
    if (message.t === 'update') return JSON.stringify({ t: 'update', id: message.id, update: { text: '[an update that cannot be sent as JSON]' } });
    throw error;
  }
}

shimValues();
let loading: Promise<unknown> = Promise.resolve();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  let message: ToHost;
  try {
    message = JSON.parse(line) as ToHost;
  } catch {
    return;
  }
  const run = () => handle(message).catch((error: unknown) => process.stderr.write(`tool host: ${describe(error)}\n`));
  // Loads run one at a time, in the order sent (a careful load's order tells the app which one
  // broke the host); calls, cancels and replies are handled at once.
  if (message?.t === 'load') {
    const careful = message.careful === true;
    loading = loading.then(() => {
      if (careful || performance.now() - flushedAt >= BATCH_MAX_AGE_MS) flush();
      return run();
    });
  } else void run();
});
// The app closed our stdin (it quit or let us go): nothing more will be asked.
lines.on('close', () => process.exit(0));
send({ t: 'ready', pid: process.pid, cacheDir: config.cacheDir ?? null });
