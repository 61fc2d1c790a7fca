// Permissions as data: rules on a call's resolved arguments, a permission level per chat, named
// tool sets and the audit record of every decision. Settings keep `toolRules` and `toolSets`.

// The rule itself (schema, type, problems) is declared once, in tool-rule.ts.
import type { RuleAction, ToolRule } from './tool-rule.ts';
export { RULE_ACTIONS, type RuleAction, type RuleMatcher, type ToolRule } from './tool-rule.ts';

export const PERMISSION_LEVELS = ['ask', 'default', 'read-only-auto', 'trusted'] as const;
/**
 * ask: every call asks (deny rules still deny). default: rules, then the tool's policy.
 * read-only-auto: read-only tools run, others ask. trusted: everything runs unless a rule asks or denies.
 */
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export const PERMISSION_LEVEL_LABELS: Record<PermissionLevel, string> = {
  ask: 'Ask every call',
  default: 'Default',
  'read-only-auto': 'Read-only auto',
  trusted: 'Trusted',
};

/** A named choice of tools for a chat or `mcp serve`, with optional rules and level. */
export interface ToolSet {
  name: string;
  /** Group names. */
  groups?: string[];
  /** Tool names. */
  tools?: string[];
  /**
   * Skills (ids, as `skills list` names them): the skills' tools are in the set and the chat's
   * catalog offers only these skills. Absent or empty: the set names no skill, and the `skills`
   * group, when the set names it, offers every enabled skill (as before sets could name skills).
   */
  skills?: string[];
  /** Checked after the global rules, with the same precedence (deny > ask > allow). */
  rules?: ToolRule[];
  level?: PermissionLevel;
}

/** What the rules say about one call. `rule` is 1-based in `toolRules`; `label` says where it is. */
export interface RuleVerdict {
  action: RuleAction | 'none';
  rule?: number;
  label?: string;
  reason?: string;
}

/** Who or what let a call run, or stopped it (the audit log's `by`). */
export type DecisionSource =
  | 'rule'
  | 'level'
  | 'policy'
  | 'user-once'
  | 'user-session'
  | 'user-always'
  | 'remembered'
  | 'user-reject'
  | 'no-approver';

export interface AuditEntry {
  at: string;
  sessionId: string;
  callId: string;
  tool: string;
  /** The MCP server of the tool (its group), when it is one. */
  server?: string;
  decision: 'allowed' | 'denied' | 'rejected';
  by: DecisionSource;
  /** e.g. "rule 3", "level trusted", "policy auto". */
  detail?: string;
  level: PermissionLevel;
  /** sha256 of the canonical JSON of the resolved arguments (secrets never leave the call). */
  argsHash: string;
  status?: string;
  durationMs?: number;
}

/** What `mcp serve` logs of a connection: its opening and end, each call, approval, question and result. */
export type McpServeAuditEvent =
  | { event: 'connect'; transport: 'stdio' | 'http'; client?: string; protocol?: string }
  | { event: 'disconnect' }
  | { event: 'call'; tool: string; callId: string; args: unknown }
  | { event: 'approval'; tool: string; callId: string; type: 'execution' | 'result'; decision: string; reason?: string; asked: boolean }
  /** A question the tool itself asked the user (Open WebUI __event_call__, a proxied server's elicitation). */
  | { event: 'question'; tool: string; callId: string; message: string; action: string; asked: boolean }
  | { event: 'result'; tool: string; callId: string; status: string; text: string; durationMs?: number };

/**
 * An `mcp serve` entry of the one audit log, beside the decisions (AuditEntry, which carry no
 * `kind`): `tooldesk audit` lists decisions; these are for who wants a connection's details.
 */
export type McpServeAuditEntry = { at: string; kind: 'mcp-serve'; connection: string } & McpServeAuditEvent;
