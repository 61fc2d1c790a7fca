// The MCP server's audit log: one JSON line per call, approval and result, appended to a file
// under the Tooldesk home (appPaths().mcpAuditLog). Lines are bounded (long arguments and results
// are cut, with their full length noted), written synchronously so the order on disk is the order
// things happened, and a write failure never fails a call: it is reported once on stderr.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { countCodePoints, sliceCodePoints } from '../../tools/code-points.ts';

const MAX_FIELD_CHARS = 4000;

export type AuditEvent =
  | { event: 'connect'; transport: 'stdio' | 'http'; client?: string; protocol?: string }
  | { event: 'disconnect' }
  | { event: 'call'; tool: string; callId: string; args: unknown }
  | { event: 'approval'; tool: string; callId: string; type: 'execution' | 'result'; decision: string; reason?: string; asked: boolean }
  /** A question the tool itself asked the user (Open WebUI __event_call__, a proxied server's elicitation). */
  | { event: 'question'; tool: string; callId: string; message: string; action: string; asked: boolean }
  | { event: 'result'; tool: string; callId: string; status: string; text: string; durationMs?: number };

export interface AuditLog {
  write(connection: string, entry: AuditEvent): void;
}

export function fileAuditLog(file: string, onError: (message: string) => void = () => {}): AuditLog {
  let failed = false;
  let dirReady = false;
  return {
    write(connection, entry) {
      const line = JSON.stringify({ at: new Date().toISOString(), connection, ...bound(entry) });
      try {
        if (!dirReady) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        dirReady = true;
        appendFileSync(file, `${line}\n`, { mode: 0o600 });
      } catch (error) {
        if (!failed) onError(`the MCP audit log ${file} cannot be written: ${(error as Error).message}`);
        failed = true;
      }
    },
  };
}

function bound(entry: AuditEvent): AuditEvent {
  if (entry.event === 'call') {
    const text = JSON.stringify(entry.args) ?? 'null';
    return countCodePoints(text) <= MAX_FIELD_CHARS ? entry : { ...entry, args: cut(text) };
  }
  if (entry.event === 'result') return { ...entry, text: cut(entry.text) };
  return entry;
}

function cut(text: string): string {
  const total = countCodePoints(text);
  return total <= MAX_FIELD_CHARS ? text : `${sliceCodePoints(text, 0, MAX_FIELD_CHARS)}… [${total - MAX_FIELD_CHARS} more characters]`;
}
