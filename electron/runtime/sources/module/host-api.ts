// The API object a module tool's factory receives (seed 003's CustomToolAPI, plus what
// `pi.registerTool` extensions call), and the `ctx` its execute receives. Headless: hasUI false.
// Runs in the tool host (host/main.ts), never in the app: `exec` asks the app to run the command.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SessionEvent, ToolContext } from '../../tools/types.ts';
import type { ExecReply, ExecRequest } from './host-protocol.ts';
import { shimValues } from './shim/shim-bridges.ts';
import { Emitter, type Disposer } from '../../base/emitter.ts';

/** What the host gives a module: its working folder and the app's exec (runner, sandbox, secrets). */
export interface HostEnv {
  workingDir: string;
  /** Contract: resolves always (a failure is code 127 with the reason in stderr); `signal` cancels. */
  exec(request: ExecRequest, signal?: AbortSignal): Promise<ExecReply>;
}

export interface ExecOptions {
  signal?: AbortSignal;
  timeout?: number;
  cwd?: string;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  code: number;
  killed: boolean;
}

export interface ModuleApiState {
  /** Tools passed to `pi.registerTool` (extension shape). */
  registered: unknown[];
  sessionHandlers: ((event: SessionEvent) => unknown)[];
  /** Commands, shortcuts, flags, renderers and event handlers it registered (none of them tools). */
  otherRegistrations: number;
  /** The module's recent logger lines (bounded) and how many were ever written. */
  logs: string[];
  logCount: number;
  /** Every secret name the module's tools declare (filled in once its tools are adapted). */
  secrets: string[];
}

/**
 * The tool whose execute is running: `exec()` is shared by all tools of a module, so it asks
 * this which tool called it and passes that tool's declared secrets to the runner. Outside an
 * execute (factory, onSession, detached callbacks) it falls back to the module's declared names.
 */
const execScope = new AsyncLocalStorage<{ state: ModuleApiState; secrets: string[] }>();

export function runWithToolSecrets<T>(state: ModuleApiState, secrets: string[], run: () => T): T {
  return execScope.run({ state, secrets }, run);
}

function secretsForExec(state: ModuleApiState): string[] {
  const scope = execScope.getStore();
  return scope?.state === state ? scope.secrets : state.secrets;
}

/** Logger lines written since `mark` (a logCount taken earlier), as far as they are still kept. */
export function logsSince(state: ModuleApiState, mark: number): string[] {
  const fresh = state.logCount - mark;
  return fresh > 0 ? state.logs.slice(-Math.min(fresh, state.logs.length)) : [];
}

const SESSION_EVENTS = new Set(['session_start', 'session_switch', 'session_shutdown']);

/** A UI that is never there: dialogs resolve empty, notifications vanish. */
export function noUI(): Record<string, unknown> {
  const theme = new Proxy({}, { get: () => (_color: unknown, text?: unknown) => (text === undefined ? String(_color ?? '') : String(text)) });
  return new Proxy({} as Record<string, unknown>, {
    get(_target, prop) {
      if (prop === 'then') return undefined;
      if (prop === 'theme') return theme;
      if (prop === 'confirm') return async () => false;
      return async () => undefined;
    },
  });
}

/**
 * pi-mono's `pi.events`: a bus shared by all extensions of the process (one extension emits,
 * another listens). A listener that throws or rejects is left out of that delivery, never
 * crashes the host or stops the other listeners.
 */
export const moduleEvents = (() => {
  const channels = new Map<string, Emitter<unknown>>();
  return {
    on(channel: string, handler: (data: unknown) => unknown): Disposer {
      if (typeof handler !== 'function') return () => {};
      let emitter = channels.get(channel);
      if (!emitter) channels.set(channel, (emitter = new Emitter<unknown>()));
      return emitter.event((data) => void Promise.resolve(handler(data)).catch(() => {}));
    },
    emit(channel: string, data?: unknown): void {
      channels.get(channel)?.fire(data);
    },
  };
})();

function addLog(state: ModuleApiState, line: string): void {
  state.logs.push(line);
  state.logCount++;
  if (state.logs.length > 200) state.logs.shift();
}

/** exec() through the app's runner: own process group, caps, timeout, abort, sandbox, declared secrets. */
export function createExec(env: HostEnv, state?: ModuleApiState) {
  return async (command: string, args: string[] = [], options: ExecOptions = {}): Promise<ExecResult> => {
    const secrets = state ? secretsForExec(state) : [];
    const reply = await env.exec(
      {
        command: String(command),
        args: Array.isArray(args) ? args.map(String) : [],
        ...(typeof options.cwd === 'string' ? { cwd: options.cwd } : {}),
        ...(typeof options.timeout === 'number' ? { timeoutMs: options.timeout } : {}),
        secrets,
      },
      options.signal,
    );
    // The sandbox's notes reach the user as the calling tool's logs (exec's result has no place for them).
    if (state) for (const warning of reply.warnings) addLog(state, `[warn] exec ${command}: ${warning}`);
    return { stdout: reply.stdout, stderr: reply.stderr, code: reply.code, killed: reply.killed };
  };
}

export function createModuleApi(env: HostEnv, state: ModuleApiState): Record<string, unknown> {
  const shims = shimValues();
  const log = (level: string) => (...parts: unknown[]) => addLog(state, `[${level}] ${parts.map((p) => (typeof p === 'string' ? p : safeJson(p))).join(' ')}`);
  const api: Record<string, unknown> = {
    cwd: env.workingDir,
    exec: createExec(env, state),
    ui: noUI(),
    hasUI: false,
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    typebox: shims.typebox,
    pi: shims.pi,
    zod: shims.zod,
    z: (shims.zod as { z: unknown }).z,
    registerTool(tool: unknown) {
      state.registered.push(tool);
    },
    events: moduleEvents,
    // Queries extensions make at load (pi-mono's ExtensionAPI) must answer with the right type.
    getActiveTools: () => [],
    getAllTools: () => [],
    getCommands: () => [],
    getThinkingLevel: () => 'off',
    on(event: string, handler: (event: unknown, ctx: unknown) => unknown) {
      state.otherRegistrations++;
      if (!SESSION_EVENTS.has(event) || typeof handler !== 'function') return;
      // Each handler hears only its own event: a session_shutdown cleanup must not run at start.
      state.sessionHandlers.push((e) =>
        `session_${e.reason}` === event ? handler(e, hostContext(env.workingDir, { callId: '', sessionId: e.sessionId, signal: new AbortController().signal, onUpdate: () => {} })) : undefined,
      );
    },
    pushPendingAction() {},
    setUIContext() {},
  };
  // Extensions call many other host methods (registerCommand, registerShortcut, sendMessage …);
  // none of them matter to a headless tool runtime, so each is a harmless no-op.
  return new Proxy(api, {
    get(target, prop) {
      if (prop in target || typeof prop === 'symbol') return target[prop as string];
      if (prop === 'then') return undefined;
      if (prop.startsWith('register')) return () => void state.otherRegistrations++;
      return () => undefined;
    },
  });
}

/**
 * Tools look up provider keys through the host's model registry (`ctx.modelRegistry`). Tooldesk
 * shares none with them, so every lookup finds nothing and the tool says what it is missing.
 */
const modelRegistry = new Proxy(
  {
    find: () => undefined,
    getAll: () => [],
    getAvailable: () => [],
    getApiKey: async () => undefined,
    getApiKeyForProvider: async () => undefined,
  } as Record<string, unknown>,
  { get: (target, prop) => (typeof prop === 'string' && !(prop in target) ? () => undefined : target[prop as string]) },
);

/** The `ctx` argument of execute: working folder, no UI, a minimal session manager. */
export function hostContext(workingDir: string, toolCtx: ToolContext): Record<string, unknown> {
  const sessionManager = new Proxy(
    {
      getSessionId: () => toolCtx.sessionId,
      getCwd: () => workingDir,
      getEntries: () => [],
      getBranch: () => [],
      getHeader: () => undefined,
      getSessionFile: () => undefined,
      getLeafId: () => null,
    } as Record<string, unknown>,
    { get: (target, prop) => (typeof prop === 'string' && !(prop in target) ? () => undefined : target[prop as string]) },
  );
  return {
    cwd: workingDir,
    hasUI: false,
    ui: noUI(),
    sessionManager,
    signal: toolCtx.signal,
    toolCallId: toolCtx.callId,
    isIdle: () => false,
    abort: () => {},
    // The rest of pi's ExtensionContext: nothing queued, no context figures, nothing to compact.
    hasPendingMessages: () => false,
    hasQueuedMessages: () => false,
    getContextUsage: () => undefined,
    getSystemPrompt: () => '',
    compact: () => {},
    shutdown: () => {},
    modelRegistry,
    model: undefined,
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
