// A tool call's bounds (its idle timeout, reset by progress, and the total backstop) and what a
// failed call tells the model: cancelled, the server gone, silent too long (naming the setting).
import { mcpSdk } from '../mcp-sdk.ts';
import type { McpServer } from '../config/server-config.ts';

/** The tool's own timeout (`toolTimeouts`), else the server's. */
export function toolTimeoutMs(server: McpServer, tool: string): number {
  return Object.hasOwn(server.toolTimeouts, tool) ? server.toolTimeouts[tool]! : server.timeoutMs;
}

/** The longest a call may run while it keeps reporting progress. */
export function maxTotalMs(timeoutMs: number): number {
  return Math.max(timeoutMs * 10, 10 * 60_000);
}

/** `crash`: why the connection ended during the call, if it did. */
export function callErrorText(server: McpServer, tool: string, error: unknown, signal: AbortSignal, crash: string | undefined): string {
  if (signal.aborted) return `${tool} was cancelled; the server was told (notifications/cancelled)`;
  if (crash) return `MCP server "${server.name}" ${crash}`;
  if (error instanceof mcpSdk().SdkError && error.code === mcpSdk().SdkErrorCode.RequestTimeout) {
    const own = Object.hasOwn(server.toolTimeouts, tool);
    const setting = own ? `toolTimeouts.${tool}` : `timeoutMs (or toolTimeouts.${tool} for this tool alone)`;
    return `MCP server "${server.name}" did not answer ${tool} within ${formatSeconds(toolTimeoutMs(server, tool))} without progress; the call was cancelled (${setting} in its settings sets the bound)`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `MCP server "${server.name}": ${message}`;
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
