// The JSON-lines protocol between the app and a module tool host (the child process that loads
// and runs module tools; see host/main.ts). One JSON object per line on stdin/stdout. The app
// never trusts what comes back: every message is checked (host-connection.ts) before use.
import type { Diagnostic, ToolDefinition, ToolUpdate } from '../../../../shared/tools.ts';
import type { SessionEvent, ToolRunResult } from '../../tools/types.ts';
import type { SourceEntry } from '../types.ts';

/** What the app knows of one loaded tool: enough to list it and to address it in the host. */
export interface HostToolInfo {
  /** Addresses the tool inside its load (file, name and position: stable across a reload). */
  key: string;
  /** The module file that made it. */
  file: string;
  definition: ToolDefinition;
  meta: Record<string, unknown>;
  secrets?: string[];
  hasOnSession: boolean;
}

export interface ExecRequest {
  command: string;
  args: string[];
  cwd?: string;
  timeoutMs?: number;
  /** The calling tool's declared secret names (checked by the app against what that tool declared). */
  secrets: string[];
}

export interface ExecReply {
  stdout: string;
  stderr: string;
  code: number;
  killed: boolean;
  warnings: string[];
}

/** App → host. */
export type ToHost =
  /** `careful`: send every answer before starting this load (the app is finding which module breaks its host). */
  | { t: 'load'; id: number; loadId: number; entry: SourceEntry; workingDir: string; factoryTimeoutMs: number; maxSourceBytes?: number; careful?: boolean }
  | { t: 'execute'; id: number; loadId: number; key: string; args: Record<string, unknown>; callId: string; sessionId: string }
  | { t: 'session'; id: number; loadId: number; key: string; event: SessionEvent }
  | { t: 'cancel'; id: number }
  | { t: 'release'; loadId: number }
  | { t: 'exec-reply'; id: number; reply: ExecReply };

/** Host → app. */
export type FromHost =
  | { t: 'ready'; pid: number; cacheDir: string | null }
  | { t: 'loaded'; id: number; tools: HostToolInfo[]; diagnostics: Diagnostic[] }
  | { t: 'update'; id: number; update: ToolUpdate }
  | { t: 'result'; id: number; result: ToolRunResult }
  | { t: 'done'; id: number; error?: string }
  /**
   * `executeId` and `callId`: the call whose async context asked (absent outside any call). The
   * app runs it only while that call runs, for that call's module and tool (exec-binding.ts).
   */
  | { t: 'exec'; id: number; loadId: number; request: ExecRequest; executeId?: number; callId?: string }
  /** What a module printed in a call's async context; `cut`: characters past the host's bound, not sent. */
  | { t: 'output'; id: number; stream: 'stdout' | 'stderr'; text: string; cut?: number }
  | { t: 'exec-cancel'; id: number };

/** Characters of one call's stdout (and of its stderr) the host forwards for its Inspect panel. */
export const MAX_CALL_OUTPUT_CHARS = 64 * 1024;

/** Longest line either side accepts (a result bigger than this is refused, not buffered). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
