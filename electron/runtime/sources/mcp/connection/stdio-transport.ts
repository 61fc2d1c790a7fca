// The MCP stdio transport over a managed child process (runner/spawn-managed.ts: process group,
// sandbox, die-with-parent, bounded stderr). Unlike the SDK's own, it bounds what a server can
// make us hold: a line longer than `maxMessageBytes` is dropped as it streams (a request waiting
// for it gets an error instead of a hang), and lines that are not JSON-RPC go to the server's log.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { mcpSdk } from '../mcp-sdk.ts';
import type { ManagedProcess } from '../../../runner/spawn-managed.ts';

/** What the transport needs of runner/spawn-managed.ts's ManagedProcess (tests pass fakes). */
export type ManagedChild = Pick<ManagedProcess, 'pid' | 'stdin' | 'stdout' | 'onStderr' | 'stderrTail' | 'exited' | 'sandboxed' | 'note' | 'warnings' | 'secretScanNotes' | 'kill'>;

export type StartChild = () => Promise<ManagedChild | { error: string }>;

export interface StdioTransportOptions {
  /** Largest JSON-RPC message accepted, bytes (default 64 MiB). */
  maxMessageBytes?: number;
  /** A stdout line that is not a JSON-RPC message (a `console.log` in the server). */
  onNoise?: (line: string) => void;
  onStderr?: (text: string) => void;
  /** A message was dropped for its size. */
  onOversized?: (bytes: number) => void;
}

const EDGE = 512;

export class ManagedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #child: ManagedChild | undefined;
  #closed = false;
  readonly #start: StartChild;
  readonly #options: StdioTransportOptions;
  readonly #max: number;
  // The line being read: its chunks, or (once too long) only its two ends for the request id.
  #chunks: Buffer[] = [];
  #size = 0;
  #head = '';
  #tail = Buffer.alloc(0);
  #oversized = false;

  constructor(start: StartChild, options: StdioTransportOptions = {}) {
    this.#start = start;
    this.#options = options;
    this.#max = options.maxMessageBytes ?? 64 * 1024 * 1024;
  }

  /** How the process ended, set before `onclose` runs. */
  exit: { code: number | null; signal: string | null } | undefined;

  get child(): ManagedChild | undefined {
    return this.#child;
  }

  // The SDK's version negotiation treats a transport with these as stdio: a probe that times out
  // then means a legacy server (some never answer unknown requests), not an outage.
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  get stderr(): null {
    return null;
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error('the transport is already started');
    const started = await this.#start();
    if ('error' in started) throw new Error(started.error);
    this.#child = started;
    if (this.#options.onStderr) started.onStderr(this.#options.onStderr);
    started.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    started.stdin.on('error', (error) => this.onerror?.(error));
    void started.exited.then((exit) => {
      this.exit = exit;
      this.#closed = true;
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    if (!child || this.#closed) throw new Error('the server process is not running');
    const line = `${JSON.stringify(message)}\n`;
    if (!child.stdin.write(line)) await new Promise<void>((resolve) => child.stdin.once('drain', resolve));
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    child.stdin.end();
    await child.kill();
  }

  #read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#append(chunk.subarray(start, nl));
      this.#endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.#append(chunk.subarray(start));
  }

  #append(part: Buffer): void {
    if (part.length === 0) return;
    this.#size += part.length;
    if (!this.#oversized && this.#size <= this.#max) {
      this.#chunks.push(part);
      return;
    }
    if (!this.#oversized) {
      this.#oversized = true;
      this.#head = Buffer.concat(this.#chunks).subarray(0, EDGE).toString('utf8');
      this.#chunks = [];
    }
    this.#tail = Buffer.concat([this.#tail, part]).subarray(-EDGE);
  }

  #endLine(): void {
    const size = this.#size;
    if (this.#oversized) {
      const id = requestIdOf(this.#head, this.#tail.toString('utf8'));
      this.#options.onOversized?.(size);
      if (id !== undefined) {
        const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
        this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32603, message: `the server's answer was ${mib(size)}, over the ${mib(this.#max)} bound, and was dropped` } });
      }
    } else if (size > 0) {
      const line = Buffer.concat(this.#chunks, size).toString('utf8').replace(/\r$/, '');
      let message: JSONRPCMessage | undefined;
      try {
        message = mcpSdk().deserializeMessage(line);
      } catch {
        this.#options.onNoise?.(line);
      }
      if (message) this.onmessage?.(message);
    }
    this.#chunks = [];
    this.#size = 0;
    this.#oversized = false;
    this.#head = '';
    this.#tail = Buffer.alloc(0);
  }
}

/** The `"id"` of a response from the ends of its text: first after `"jsonrpc"`, or last before the closing brace. */
function requestIdOf(head: string, tail: string): string | number | undefined {
  const ID = String.raw`"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")`;
  const match = new RegExp(String.raw`^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*${ID}`).exec(head) ?? new RegExp(String.raw`${ID}\s*\}\s*$`).exec(tail);
  if (!match) return undefined;
  return match[1]!.startsWith('"') ? (JSON.parse(match[1]!) as string) : Number(match[1]);
}

/** How a server's process ended, once it has (waiting briefly: a closed stdout means it is exiting). */
export async function exitText(transport: Transport): Promise<string | undefined> {
  if (!(transport instanceof ManagedStdioTransport) || !transport.child) return undefined;
  const exit = transport.exit ?? (await Promise.race([transport.child.exited, new Promise<undefined>((r) => setTimeout(r, 200))]));
  if (!exit) return undefined;
  return exit.signal ? `the process was killed (${exit.signal})` : `the process exited with code ${exit.code}`;
}
