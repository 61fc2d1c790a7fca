// One MCP server's tool calls: each sent with its bounds (the idle timeout reset by progress, a
// total cap), recorded for its Inspect panel, and known while it runs, so that what the server
// asks meanwhile (elicitation, sampling) is shown in that call's chat and ends with it. The
// protocol does not say which call a server request belongs to: the latest one running.
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { ToolContext, ToolRunResult } from '../../../tools/types.ts';
import { traceMcpCall } from '../../../tools/call-trace.ts';
import { McpCallRecorder } from './call-recorder.ts';
import { callErrorText, maxTotalMs, toolTimeoutMs } from './call-errors.ts';
import { mapCallResult } from '../mapping/map-result.ts';
import { progressText } from './progress-text.ts';
import type { McpServer } from '../config/server-config.ts';

export interface ServerCallPorts {
  server(): McpServer;
  /** The connection, started on demand, or why it is not there. */
  client(): Promise<Client | { error: string }>;
  processId(): number | undefined;
  /** Why the current connection ended (a crash during the call), if it did. */
  crash(): string | undefined;
  /** What the connection adds to a finished call's result (a refused write becomes an offer). */
  finish(result: ToolRunResult): ToolRunResult;
}

export class ServerCalls {
  /** Each call's request, answer and log lines, for its Inspect panel. */
  readonly recorder = new McpCallRecorder();
  readonly #ports: ServerCallPorts;
  readonly #maxSampling: number;
  #samplingLeft: number;
  /** Tool calls in flight, oldest first. */
  readonly #running: Array<{ sessionId: string; callId: string; signal: AbortSignal }> = [];

  constructor(ports: ServerCallPorts, maxSamplingPerCall: number) {
    this.#ports = ports;
    this.#maxSampling = maxSamplingPerCall;
    this.#samplingLeft = maxSamplingPerCall;
  }

  /** Never throws: every failure is an ERROR result naming the server. */
  async call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolRunResult> {
    const server = this.#ports.server();
    const record = this.recorder.begin({ server: server.name, transport: server.kind });
    traceMcpCall(record.trace);
    try {
      const client = await this.#ports.client();
      record.trace.startMs = performance.now() - record.began;
      const pid = this.#ports.processId();
      if (pid !== undefined) record.trace.pid = pid;
      if ('error' in client) return { status: 'ERROR', error: client.error };
      if (ctx.signal.aborted) return { status: 'ERROR', error: 'cancelled before the call was sent' };
      return this.#ports.finish(await this.recorder.run(record, () => this.#send(client, server, tool, args, ctx)));
    } finally {
      this.recorder.end(record);
    }
  }

  async #send(client: Client, server: McpServer, tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolRunResult> {
    this.#samplingLeft = this.#maxSampling;
    const timeout = toolTimeoutMs(server, tool);
    const inFlight = { sessionId: ctx.sessionId, callId: ctx.callId, signal: ctx.signal };
    this.#running.push(inFlight);
    try {
      const result = (await client.callTool(
        { name: tool, arguments: args },
        {
          signal: ctx.signal,
          timeout,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: maxTotalMs(timeout),
          onprogress: (p) => ctx.onUpdate({ text: progressText(p), details: p }),
        },
      )) as CallToolResult;
      return mapCallResult(result);
    } catch (error) {
      return { status: 'ERROR', error: callErrorText(server, tool, error, ctx.signal, this.#ports.crash()) };
    } finally {
      this.#running.splice(this.#running.indexOf(inFlight), 1);
    }
  }

  /** The call a server request belongs to, and a signal that also ends when that call is cancelled or its turn aborted. */
  askContext(signal: AbortSignal): { call?: { sessionId: string; callId: string }; signal: AbortSignal } {
    const latest = this.#running.at(-1);
    if (!latest) return { signal };
    return { call: { sessionId: latest.sessionId, callId: latest.callId }, signal: AbortSignal.any([signal, latest.signal]) };
  }

  /** One more sampling request in the current call, if its budget allows. */
  takeSampling(): boolean {
    if (this.#samplingLeft <= 0) return false;
    this.#samplingLeft--;
    return true;
  }

  /** The executor's deadline for a call of `tool`: a backstop above its idle timeout. */
  deadlineMs(tool: string): number {
    return maxTotalMs(toolTimeoutMs(this.#ports.server(), tool)) + 5000;
  }
}
