// MCP servers as the app shows them (Settings → MCP servers): one row per configured server
// with its state, and the preview of an import from other apps' configs.

import type { McpClientOffer } from './mcp-tool-count.ts';

export type McpServerStatus = 'disabled' | 'stopped' | 'starting' | 'ready' | 'failed';

export interface McpServerView {
  name: string;
  /** The group switch (settings.groupDefaults): on starts the server, off stops it. */
  enabled: boolean;
  status: McpServerStatus;
  transport: 'stdio' | 'http' | 'sse';
  /** The command line, or the URL. */
  target: string;
  /** Tools listed by the server (when ready), and why another view may count differently. */
  tools: number;
  appOnlyTools?: number;
  switchedOffTools?: number;
  offered?: McpClientOffer[];
  /** Why it failed (with the stderr tail), or a note from the start. */
  detail?: string;
  /** What the sandbox lets the server do, written for the user. */
  sandbox: string;
  trusted: boolean;
  restarts: number;
  /** The entry in settings does not parse: why (the row can only be removed). */
  problem?: string;
  /** The folders it is offered as roots (none: the roots capability is not declared). */
  roots?: string[];
  /** The folders it may write to under the sandbox. */
  writable?: string[];
  /** The existing folders its arguments name, and whether they are writable (the row's switch). */
  argFolders?: { folders: string[]; writable: boolean };
  /** A write the sandbox refused: "Allow writing to FOLDER for this server". */
  writeRefusal?: { path: string; folder: string };
  /** Keychain secrets it refers to that were never stored (imported with `--skip-secrets`): set each to clear the mark. */
  secretMissing?: string[];
  /** How its last start went (the row's "starting… Ns", Inspect's timeline). */
  startTimeline?: McpStartTimeline;
}

export type McpStartStep = 'spawn' | 'initialize' | 'tools/list';

/** How a server's last start went (spawn → initialize → tools/list); a step not reached is absent. */
export interface McpStartTimeline {
  /** When the start began (epoch ms): the row counts the seconds from it while starting. */
  since: number;
  /** Each step reached, with the ms since `since`. */
  steps: Array<{ step: McpStartStep; ms: number }>;
  /** The start's bound, ms (the server's `startTimeoutMs` or `limits.mcpStartTimeoutMs`). */
  timeoutMs: number;
}

export interface McpImportCandidate {
  name: string;
  /** The app and file it comes from. */
  from: string;
  /** The command line or URL. */
  target: string;
  /** Secrets that will move to the keychain (their names; the values never leave the host). */
  secrets: string[];
  /** Every keychain secret the server will receive (`${secret:NAME}` in its env, headers, oauth). */
  references: string[];
  /** The references outside its own `mcp.<server>.*` names: imported only when each is allowed. */
  foreign: string[];
  /** VS Code `${input:ID}` values to answer; the answer is stored as the keychain secret `secret`. */
  questions: Array<{ id: string; description: string; password: boolean; secret: string }>;
  /** `${…}` variables that could not be resolved at import (kept as written). */
  warnings?: string[];
  /** Environment variables (`${env:NAME}`) read when the server starts, never stored. */
  fromEnvironment?: string[];
}

export interface McpImportPreview {
  add: McpImportCandidate[];
  skipped: Array<{ name: string; from: string; reason: string }>;
  /** Files that could not be read. */
  problems: string[];
  /** Every file looked at (found or not), so the user knows where we looked. */
  searched: string[];
}

// ---------------------------------------------------------------------------------------------
// What a server asks the user during a tool call (shown as a card in that chat)

/** One field of a form-mode elicitation (the spec allows flat primitive fields only). */
export interface McpFormField {
  name: string;
  title?: string;
  description?: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
  required: boolean;
  /** Choices for a string field. */
  options?: Array<{ value: string; label: string }>;
  default?: string | number | boolean;
  format?: string;
  minimum?: number;
  maximum?: number;
}

interface McpAskBase {
  id: string;
  sessionId: string;
  /** The tool call it came during, when known. */
  callId?: string;
  server: string;
  /** The tool that asks when it is not the server's own request (an Open WebUI tool's `__event_call__`); `server` is then its group. */
  tool?: string;
}

export type McpInteractionRequest =
  /** `confirm`: a yes/no question (no fields), answered Confirm (accept) or Cancel (decline). */
  | (McpAskBase & { kind: 'form'; message: string; fields: McpFormField[]; confirm?: boolean })
  /** Open `url` in the browser once the user agrees (sign-ins, payments: secrets never pass through the app). */
  | (McpAskBase & { kind: 'url'; message: string; url: string })
  /** The server wants the chat's model to answer `messages`; the user sees them first. */
  | (McpAskBase & { kind: 'sampling'; messages: Array<{ role: 'user' | 'assistant'; text: string }>; systemPrompt?: string; maxTokens: number });

export type McpInteractionAnswer =
  | { action: 'accept'; content?: Record<string, string | number | boolean> }
  | { action: 'decline' }
  | { action: 'cancel' };

// ---------------------------------------------------------------------------------------------
// Prompts (`/server:prompt` in the message box) and resources ("Attach resource")

export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface McpPromptInfo {
  server: string;
  name: string;
  /** What the user types after `/`: `server:prompt`. */
  command: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgument[];
}

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Bytes, when the server says. */
  size?: number;
}

/** A list gathered from every switched-on server; a server that could not answer is named in `problems`. */
export interface McpListing<T> {
  items: T[];
  problems: string[];
}
