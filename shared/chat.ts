// Payload types for chat sessions: messages and the events a session emits while it runs.
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult, ToolUpdate } from './tools.ts';
import type { McpInteractionAnswer, McpInteractionRequest } from './mcp.ts';
import type { PermissionLevel } from './permissions.ts';

/** An error as a value: what crosses every boundary instead of a thrown object. */
export interface ErrorValue {
  name: string;
  message: string;
}

export interface SessionInfo {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** Every message, other branches included. */
  messageCount: number;
  /** Messages of the shown branch (absent in summaries written before it existed: use messageCount). */
  shownCount?: number;
  /** Listed on top of the sidebar. */
  pinned?: boolean;
  /** Hidden from the sidebar unless "Archived" is shown. */
  archived?: boolean;
}

/** The sidebar flags of a session (setSessionFlags: an absent field stays as it is). */
export interface SessionFlags {
  pinned?: boolean;
  archived?: boolean;
}

/** A tool call the assistant asked for. */
export interface ChatToolCall {
  id: string;
  name: string;
  /** Parsed arguments; `{}` when the model sent invalid JSON (see rawArguments). */
  args: Record<string, unknown>;
  rawArguments?: string;
}

interface MessageBase {
  id: string;
  createdAt: number;
  /**
   * The message this one follows (null: the first of a branch at the top). Absent in files
   * written before branches existed: there a message follows the one appended before it.
   */
  parentId?: string | null;
}

/** Where a message sits among its alternatives (Edit and Regenerate add one): "‹ index/count ›". */
export interface BranchInfo {
  /** 1-based. */
  index: number;
  count: number;
  /** Ids of the neighbouring alternatives, when there are. */
  previous?: string;
  next?: string;
}

/** A file or image sent with a user message, as the chat shows it (a chip). */
export interface Attachment {
  name: string;
  kind: 'image' | 'text' | 'pdf';
  /** MIME type as the browser reported it (or guessed from the name). */
  mediaType: string;
  /** Size of the original file, bytes. */
  size: number;
  /** Text and PDF: the variable holding the whole extracted text. */
  variable?: string;
  /** Text and PDF: the text was longer than what went to the model. */
  truncated?: boolean;
  /** Text and PDF: characters of the whole text. */
  chars?: number;
  /** The runtime's copy, under the session's files folder. */
  stored?: string;
}

export interface UserMessage extends MessageBase {
  role: 'user';
  /** What the model gets: the typed text with its `$VAR_REF{{name}}`s expanded. */
  content: string;
  /** The text as typed, when `$VAR_REF`s were expanded (the chat shows this, with chips). */
  typedContent?: string;
  /** The variables the text referenced and how many characters each expanded to. */
  varRefs?: { name: string; chars: number }[];
  attachments?: Attachment[];
  /** The `/server:prompt …` the user typed, when the text is what that MCP prompt returned (taken as it is: no `/tool`, no `$VAR_REF`). */
  prompt?: string;
}

/** A chat's own choices (the "Model" picker and the "Chat settings" panel); unset fields fall back to Settings. */
export interface ChatSettings {
  providerId?: string;
  model?: string;
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
  /** The chat's permission level (default `default`); a change applies to the next call. */
  permissions?: PermissionLevel;
  /** A tool set of settings.toolSets: its tools, rules and level apply to this chat. */
  toolSet?: string;
  /**
   * Skills switched off for this chat in its Tools menu (ids): left out of its catalog, and a call
   * naming one is refused. Settings → Skills stays the switch for every chat.
   */
  skillsOff?: string[];
}

/** How fast a model step was. */
export interface StepTiming {
  /** From sending the request to the first streamed token, ms. */
  firstTokenMs?: number;
  /** From sending the request to the end of the stream, ms. */
  totalMs: number;
  /** Output tokens per second of streaming (after the first token), when the provider reported usage. */
  tokensPerSecond?: number;
}

export type StopReason = 'stop' | 'tool-calls' | 'length' | 'aborted' | 'error' | 'max-steps';

export interface AssistantMessage extends MessageBase {
  role: 'assistant';
  content: string;
  reasoning?: string;
  toolCalls?: ChatToolCall[];
  stopReason?: StopReason;
  error?: ErrorValue;
  model?: string;
  /** The provider (settings id) of `model`. */
  providerId?: string;
  /** Token counts the provider reported for this step. */
  usage?: TokenUsage;
  timing?: StepTiming;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** Original sizes (characters) of result fields a session cut or left out to stay small (-1: data that is not JSON). */
export interface ToolResultCut {
  data?: number;
  formattedText?: number;
  logs?: number;
  finalText?: number;
  error?: number;
}

export interface ToolResultMessage extends MessageBase {
  role: 'tool';
  callId: string;
  toolName: string;
  groupName?: string;
  args?: Record<string, unknown>;
  /** What the model saw (the result's finalText). */
  content: string;
  /** Bounded for storage (see `cut`); the whole formatted text is in `result.cacheVarResult`. */
  result: ToolExecuteResult;
  /** Present when `result` was bounded: what was cut and how big it was. */
  cut?: ToolResultCut;
  /** "Run again" of this earlier call (its callId): shown under it. */
  rerunOf?: string;
  /** Asked by the app shown in this earlier call's block (its callId): shown under it, "from the app". */
  fromApp?: string;
}

export type ChatMessage = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * A turn the app stopped in the middle of (a restart, a crash): the chat shows "Interrupted" with
 * Continue (the calls it left are asked again, then the model goes on) and Retry (the model
 * answers its user message again).
 */
export interface TurnInterruption {
  turnId: string;
  /** What it was doing: the model was answering, a call waited for approval, a call was running. */
  during: 'answer' | 'approval' | 'tool';
  /**
   * The calls it left without a result; `waiting`: its approval was never answered (else it was
   * running). `result`: the call ran and this result waited for approval — Continue shows it again
   * and never runs the call again.
   */
  calls: { callId: string; toolName: string; waiting: boolean; result?: { status: ToolExecuteResult['status']; text: string } }[];
  /** The user message the turn answered (Retry answers it again). */
  retryFrom?: string;
}

/** Everything a session emits. Every event names its session. */
export type ChatEvent =
  /** A finished message was appended (replaces any streamed draft with the same id). */
  | { type: 'session.message'; sessionId: string; message: ChatMessage; branch?: BranchInfo }
  /** The shown path changed other than by an append (Edit, Regenerate, a branch switch, Delete): replace the rows. */
  | { type: 'session.path'; sessionId: string; messages: ChatMessage[]; branches: Record<string, BranchInfo> }
  /** The chat's own model and settings changed. */
  | { type: 'session.settings'; sessionId: string; chat: ChatSettings }
  /** Streamed text of the assistant message being written (append to the draft with messageId). */
  | { type: 'session.delta'; sessionId: string; messageId: string; text?: string; reasoning?: string }
  | { type: 'session.turn'; sessionId: string; turnId: string; state: 'started' }
  | { type: 'session.turn'; sessionId: string; turnId: string; state: 'finished'; stopReason: StopReason; error?: ErrorValue }
  | {
      type: 'tool.started';
      sessionId: string;
      callId: string;
      toolName: string;
      groupName: string;
      args: Record<string, unknown>;
      /** The tool's compressArgs(args) when it has one. */
      summary?: string;
      /** "Run again" of this earlier call. */
      rerunOf?: string;
      /** Asked by the app of this earlier call. */
      fromApp?: string;
    }
  | { type: 'tool.progress'; sessionId: string; callId: string; update: ToolUpdate }
  | { type: 'tool.finished'; sessionId: string; callId: string; toolName: string; result: ToolExecuteResult }
  | { type: 'approval.requested'; sessionId: string; request: ApprovalRequest }
  /** `decision` is null when the request was dropped (turn aborted, session closed, no UI). */
  | { type: 'approval.resolved'; sessionId: string; requestId: string; decision: ApprovalDecision | null }
  /** An MCP server asks the user something during a tool call (a form, a URL to open, a sampling request): a card. */
  | { type: 'mcp.interaction.requested'; sessionId: string; request: McpInteractionRequest }
  /** `answer` null: dropped (call or turn aborted). */
  | { type: 'mcp.interaction.resolved'; sessionId: string; requestId: string; answer: McpInteractionAnswer | null }
  | { type: 'variables.changed'; sessionId: string }
  /** Something the user should see that is not a message: a provider retry, a repaired session file. */
  | { type: 'session.notice'; sessionId: string; level: 'info' | 'warning'; message: string };

/** A file sent with a message (browser File → base64). */
export interface AttachmentUpload {
  name: string;
  mediaType: string;
  /** The file's bytes, base64. */
  data: string;
}
