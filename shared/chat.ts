// Payload types for chat sessions: messages and the events a session emits while it runs.
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult, ToolUpdate } from './tools.ts';
import type { McpInteractionAnswer, McpInteractionRequest } from './mcp.ts';

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
  messageCount: number;
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
}

export interface UserMessage extends MessageBase {
  role: 'user';
  /** What the model gets: the typed text with its `$VAR_REF{{name}}`s expanded. */
  content: string;
  /** The text as typed, when `$VAR_REF`s were expanded (the chat shows this, with chips). */
  typedContent?: string;
  /** The variables the text referenced and how many characters each expanded to. */
  varRefs?: { name: string; chars: number }[];
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
  /** Token counts the provider reported for this step. */
  usage?: TokenUsage;
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
}

export type ChatMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** Everything a session emits. Every event names its session. */
export type ChatEvent =
  /** A finished message was appended (replaces any streamed draft with the same id). */
  | { type: 'session.message'; sessionId: string; message: ChatMessage }
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
