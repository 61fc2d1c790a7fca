// The texts of an MCP call's Inspect parts: each copyable as shown.
import type { McpCallTrace } from '../../../../shared/tool-inspection.ts';
import { formatDuration } from '../../ui/format.ts';

/** A JSON text pretty-printed when it is whole; a cut one is shown as it was kept. */
function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function mcpRequestText(mcp: McpCallTrace): string {
  if (mcp.requests.length === 0) return 'Nothing was sent (the call ended before its request).';
  return mcp.requests.map(pretty).join('\n\n');
}

export function mcpAnswerText(mcp: McpCallTrace): string {
  if (mcp.response === undefined) return 'No answer (the call was cancelled, timed out, or the server ended first).';
  return `isError: ${mcp.isError === true}\n${pretty(mcp.response)}`;
}

export function mcpServerText(mcp: McpCallTrace): string {
  return [
    `${mcp.server} (${mcp.transport}${mcp.pid !== undefined ? `, pid ${mcp.pid}` : ''})`,
    ...(mcp.requestId !== undefined ? [`request id ${JSON.stringify(mcp.requestId)}`] : []),
    `starting the server ${formatDuration(mcp.startMs)}`,
    `round trip ${formatDuration(mcp.roundTripMs)}`,
  ].join(' · ');
}

/** One line per log line: `+12 ms stderr  text`, a `*` where other calls ran too. */
export function mcpLogText(mcp: McpCallTrace): string {
  if (mcp.log.length === 0) return 'The server logged nothing while this call ran.';
  const lines = mcp.log.map((l) => `+${formatDuration(l.atMs)} ${l.source}${l.shared ? '*' : ''}  ${l.text}`);
  if (mcp.logCut) lines.push(`… ${mcp.logCut} more lines not kept (the server's whole log: tooldesk mcp logs ${mcp.server})`);
  if (mcp.log.some((l) => l.shared)) lines.push('* arrived while other calls to this server ran: MCP does not say which call a log line belongs to.');
  return lines.join('\n');
}
