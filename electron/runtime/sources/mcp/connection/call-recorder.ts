// What each MCP tool call of one server sent and received, for its Inspect panel. Several calls
// of a server can run at once, so nothing here means "the latest call": a `tools/call` request is
// given to the call whose async context sent it, and its answer, its progress and our
// cancellation are matched by that request's id (the SDK uses it as the progress token too).
// MCP log lines carry no request id: a line is given to every call running when it arrived, and
// marked shared when more than one was.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { McpCallTrace, McpLogLine } from '../../../../../shared/tool-inspection.ts';
import { progressText } from './progress-text.ts';

/** Lines kept per call, and their characters in all; the rest are counted in `logCut`. */
export const MAX_CALL_LOG_LINES = 200;
export const MAX_CALL_LOG_CHARS = 64 * 1024;
/** Characters kept of one request or answer's JSON text. */
export const MAX_CALL_JSON_CHARS = 64 * 1024;

type RequestId = string | number;

export interface RecordedCall {
  readonly trace: McpCallTrace;
  readonly began: number;
  sentAt?: number;
  readonly ids: Set<RequestId>;
  logChars: number;
}

export class McpCallRecorder {
  readonly #context = new AsyncLocalStorage<RecordedCall>();
  readonly #open = new Set<RecordedCall>();

  /** Opens the record of one call; from now on the server's log lines reach it. */
  begin(base: Pick<McpCallTrace, 'server' | 'transport'>): RecordedCall {
    const call: RecordedCall = { trace: { ...base, requests: [], log: [], startMs: 0, roundTripMs: 0 }, began: performance.now(), ids: new Set(), logChars: 0 };
    this.#open.add(call);
    return call;
  }

  /** Runs `send` (the SDK's callTool) so the requests it sends are known to be this call's. */
  run<T>(call: RecordedCall, send: () => Promise<T>): Promise<T> {
    return this.#context.run(call, send);
  }

  /** The call ended: nothing more is added to its record. */
  end(call: RecordedCall): void {
    if (!this.#open.delete(call)) return;
    if (call.sentAt !== undefined && call.trace.response === undefined) call.trace.roundTripMs = performance.now() - call.sentAt;
  }

  /** Watches what goes over `transport` (call before the client connects: the SDK chains an `onmessage` set before). */
  watch(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.#sent(message);
      return send(message, options);
    };
    transport.onmessage = (message) => this.#received(message);
  }

  /** A line of the server's log (stderr, a log notification, a note of ours). */
  line(text: string, source: McpLogLine['source']): void {
    const shared = this.#open.size > 1;
    for (const call of this.#open) this.#add(call, { source, text, ...(shared ? { shared: true } : {}) });
  }

  #sent(message: JSONRPCMessage): void {
    const m = message as { id?: RequestId; method?: string; params?: { requestId?: RequestId; reason?: unknown } };
    if (m.method === 'tools/call' && m.id !== undefined) {
      const call = this.#context.getStore();
      if (!call || !this.#open.has(call)) return;
      call.ids.add(m.id);
      call.trace.requestId = m.id;
      call.trace.requests.push(boundedJson(message));
      call.sentAt ??= performance.now();
      return;
    }
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) {
      const call = this.#byId(m.params.requestId);
      if (call) this.#add(call, { source: 'note', text: `tooldesk: sent notifications/cancelled${typeof m.params.reason === 'string' ? ` (${m.params.reason})` : ''}` });
    }
  }

  #received(message: JSONRPCMessage): void {
    const m = message as { id?: RequestId; method?: string; result?: { isError?: unknown }; error?: unknown; params?: Record<string, unknown> };
    if (m.method === undefined && m.id !== undefined) {
      const call = this.#byId(m.id);
      if (!call) return;
      call.trace.response = boundedJson(message);
      if (m.result && typeof m.result === 'object') call.trace.isError = m.result.isError === true;
      if (call.sentAt !== undefined) call.trace.roundTripMs = performance.now() - call.sentAt;
      return;
    }
    if (m.method === 'notifications/progress' && m.params) {
      const token = m.params.progressToken as RequestId | undefined;
      const call = token === undefined ? undefined : this.#byId(token);
      if (call && typeof m.params.progress === 'number') {
        this.#add(call, { source: 'progress', text: progressText(m.params as { progress: number; total?: number; message?: string }) });
      }
    }
  }

  #byId(id: RequestId): RecordedCall | undefined {
    for (const call of this.#open) if (call.ids.has(id)) return call;
    return undefined;
  }

  #add(call: RecordedCall, line: Omit<McpLogLine, 'atMs'>): void {
    const trace = call.trace;
    if (trace.log.length >= MAX_CALL_LOG_LINES || call.logChars + line.text.length > MAX_CALL_LOG_CHARS) {
      trace.logCut = (trace.logCut ?? 0) + 1;
      return;
    }
    call.logChars += line.text.length;
    trace.log.push({ atMs: Math.round(performance.now() - call.began), ...line });
  }
}

/**
 * The message's JSON text, as the transport writes it, cut past the bound. Base64 of images,
 * audio and blob resources is named by its size instead: the inspection is kept in the session
 * file, which holds no media bytes (a call's images are files of their own).
 */
function boundedJson(message: JSONRPCMessage): string {
  let text: string;
  try {
    text = JSON.stringify(message, function (this: Record<string, unknown>, key, value: unknown) {
      const media = (key === 'data' && (this.type === 'image' || this.type === 'audio')) || (key === 'blob' && typeof this.uri === 'string');
      return media && typeof value === 'string' ? `(${Math.ceil((value.length * 3) / 4 / 1024)} KB of base64 ${key === 'blob' ? 'blob' : this.type} data, not kept here)` : value;
    });
  } catch {
    return '[a message that cannot be shown as JSON]';
  }
  return text.length > MAX_CALL_JSON_CHARS ? `${text.slice(0, MAX_CALL_JSON_CHARS)}… [${text.length - MAX_CALL_JSON_CHARS} more characters not kept]` : text;
}
