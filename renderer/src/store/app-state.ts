// The renderer's state: what the server told us, shaped for rendering. Mutated only by
// applyEvent / applySnapshot (pure, no I/O) inside Solid's produce(), so each change notifies
// only the paths it touched: a streaming delta re-renders the streaming message alone.
import type { ToolsState } from '../../../shared/api.ts';
import type { Attachment, BranchInfo, ChatSettings, ErrorValue, SessionInfo, StepTiming, StopReason, TokenUsage, TurnInterruption } from '../../../shared/chat.ts';
import type { McpInteractionRequest } from '../../../shared/mcp.ts';
import type { Settings } from '../../../shared/settings.ts';
import type { ApprovalRequest, ToolExecuteResult, ToolNotification } from '../../../shared/tools.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';

/** `interrupted`: a restart cut its turn off before it ended (Continue asks for it again). */
export type ToolCallStatus = 'pending' | 'approval' | 'running' | 'done' | 'error' | 'rejected' | 'cancelled' | 'interrupted';

export interface ToolCallState {
  callId: string;
  toolName: string;
  groupName: string;
  args: Record<string, unknown>;
  /** The tool's own compressArgs() text when it has one. */
  summary?: string;
  status: ToolCallStatus;
  /** When the call started running (ms since epoch). */
  startedAt?: number;
  finishedAt?: number;
  /** Text streamed by the tool (onUpdate) while it runs. */
  partial: string;
  result?: ToolExecuteResult;
  /** "Run again" calls of this one, in order (shown under it). */
  reruns: string[];
  /** Set on a rerun: the call it repeats. */
  rerunOf?: string;
  /** Set on a call an app made: the call whose app asked (shown under it, "from the app"). */
  fromApp?: string;
}

export type Row =
  | {
      kind: 'user';
      id: string;
      content: string;
      createdAt: number;
      varRefs?: { name: string; chars: number }[];
      attachments?: Attachment[];
      branch?: BranchInfo;
      /** The `/server:prompt …` whose text this is. */
      prompt?: string;
    }
  | {
      kind: 'assistant';
      id: string;
      content: string;
      reasoning: string;
      streaming: boolean;
      callIds: string[];
      createdAt: number;
      stopReason?: StopReason;
      error?: ErrorValue;
      model?: string;
      usage?: TokenUsage;
      timing?: StepTiming;
      branch?: BranchInfo;
    }
  /** A tool call no assistant message asked for (`/tool` commands, the Tools panel's Run). */
  | { kind: 'tool'; id: string; callId: string; createdAt: number }
  /** A turn that ended with an error the user should see; `retryFrom` is the message Retry answers again. */
  | { kind: 'notice'; id: string; text: string; tone: 'error' | 'info'; createdAt: number; retryFrom?: string }
  /** The turn a restart cut off, last in the chat until a turn starts: "Interrupted" with Continue and Retry. */
  | { kind: 'interrupted'; id: string; createdAt: number; interruption: TurnInterruption };

export interface ChatState {
  sessionId: string;
  rows: Row[];
  /** Row index by row id (message id), so deltas find their row in O(1). */
  rowIndex: Record<string, number>;
  toolCalls: Record<string, ToolCallState>;
  /** Pending approval requests by request id, in arrival order (`approvalOrder`). */
  approvals: Record<string, ApprovalRequest>;
  approvalOrder: string[];
  running: boolean;
  /** Bumped on variables.changed so open panels reload. */
  variablesVersion: number;
  /** The chat's own choice of tools; null follows the global switches. */
  toolSelection: ChatToolSelection | null;
  /** The chat's own model and settings. */
  chat: ChatSettings;
  /** What MCP servers are asking the user now (form, URL, sampling cards), in arrival order. */
  mcpAsks: McpInteractionRequest[];
  /** Toasts tools raised while they ran (Open WebUI `notification`), oldest first, at most MAX_TOOL_TOASTS. */
  toasts: ToolToast[];
}

export interface ToolToast extends ToolNotification {
  id: string;
  toolName: string;
  createdAt: number;
}

/** Toasts a chat shows at once; an older one gives way to a newer. */
export const MAX_TOOL_TOASTS = 4;

export interface AppState {
  sessions: SessionInfo[];
  activeSessionId: string | null;
  /** "+ New chat" before its first message: nothing is stored yet (activeSessionId is null). */
  /** "+ New chat" before its first message: its settings and tool choice, stored with the session when it is created. */
  draft: { chat: ChatSettings; toolSelection?: ChatToolSelection | null } | null;
  chats: Record<string, ChatState>;
  tools: ToolsState;
  settings: Settings | null;
}

export function emptyAppState(): AppState {
  return {
    sessions: [],
    activeSessionId: null,
    draft: null,
    chats: {},
    tools: { groups: [], diagnostics: [] },
    settings: null,
  };
}

export function emptyChat(sessionId: string): ChatState {
  return {
    sessionId,
    rows: [],
    rowIndex: {},
    toolCalls: {},
    approvals: {},
    approvalOrder: [],
    running: false,
    variablesVersion: 0,
    toolSelection: null,
    chat: {},
    mcpAsks: [],
    toasts: [],
  };
}
