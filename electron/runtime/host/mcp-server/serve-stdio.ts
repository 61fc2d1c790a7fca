// `tooldesk mcp serve`: MCP over stdin/stdout, what desktop hosts launch. The SDK's serveStdio
// decides the protocol era from the client's opening (2025 `initialize` or 2026-07-28
// `server/discover`), so both kinds of client work. Stdin closing ends the connection: pending
// questions are rejected and running tools killed.
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpServeConnection } from './serve-connection.ts';

/** Larger than the SDK's 10 MB default so a 10 MB request gets an answer, not a closed pipe. */
export const STDIO_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface McpStdioOptions {
  makeConnection(id: string): McpServeConnection;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  log?: (message: string) => void;
}

/** Serves one connection; resolves when it ends (stdin closed, or close() called). */
export function serveMcpStdio(options: McpStdioOptions): { done: Promise<void>; close(): Promise<void> } {
  const stdin = (options.stdin ?? process.stdin) as import('node:stream').Readable;
  const stdout = (options.stdout ?? process.stdout) as import('node:stream').Writable;
  let connection: McpServeConnection | undefined;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const end = () => {
    connection?.close();
    finish();
  };
  const transport = new StdioServerTransport(stdin, stdout, { maxBufferSize: STDIO_MAX_MESSAGE_BYTES });
  const handle = serveStdio(
    () => {
      connection = options.makeConnection(`stdio-${process.pid}`);
      return connection.server;
    },
    { transport, onerror: (error) => options.log?.(`MCP stdio: ${error.message}`) },
  );
  stdin.once('end', end);
  stdin.once('close', end);
  return {
    done,
    async close() {
      await handle.close().catch(() => {});
      end();
    },
  };
}
