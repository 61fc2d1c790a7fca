// A CallGuard over a RuleBook: the rules (global, then the chat's tool set), the server-identity
// check for approvals of MCP tools, and one audit line per decided call.
import { createHash } from 'node:crypto';
import { isReadOnlyTool } from '../../../../shared/tool-selection.ts';
import { canonicalJson } from '../approval/canonical-json.ts';
import type { CallGuard, GuardedCall } from './call-guard.ts';
import { decideCall, type CallDecision } from './decide-call.ts';
import { evaluateForTool, rulesForTool } from './evaluate-rules.ts';
import type { CompiledRule } from './compile-rules.ts';
import type { PathContext } from './normalise-path.ts';
import type { RuleVerdict } from '../../../../shared/permissions.ts';

const NO_RULE: RuleVerdict = { action: 'none' };
import type { RuleBook } from './rule-book.ts';

export interface BookGuardOptions {
  /** The chat's tool set, read at every call (it may change mid-turn). */
  toolSet?: () => string | undefined;
  /** Nobody watches this conversation (a scheduled run), read at every call: levels only tighten. */
  unattended?: () => boolean;
  /** The conversation's own folder (a schedule's --cwd), read at every call; undefined: the setting's. */
  workingDir?: () => string | undefined;
}

export function bookCallGuard(book: RuleBook, options: BookGuardOptions = {}): CallGuard {
  // What depends on the tool alone (its names, which rules name it, read-only), worked out once
  // per tool and rule list: every call passes here.
  const facts = new WeakMap<GuardedCall['tool'], ToolFacts>();
  const factsOf = (call: GuardedCall, rules: readonly CompiledRule[]): ToolFacts => {
    let known = facts.get(call.tool);
    if (known === undefined || known.toolName !== call.toolName || known.modelName !== call.modelName) {
      const readOnly = isReadOnlyTool({ name: call.toolName, format: call.tool.source?.format ?? 'builtin', ...(call.tool.meta ? { meta: trustedMeta(call) } : {}) });
      known = { toolName: call.toolName, modelName: call.modelName, readOnly, list: undefined, rules: [] };
      facts.set(call.tool, known);
    }
    if (known.list !== rules) {
      known.list = rules;
      known.rules = rulesForTool(rules, namesOf(call));
    }
    return known;
  };
  // Relative paths mean the folder the tool runs in (Tool.relativeTo), else the working folder;
  // a conversation with its own folder (a schedule's --cwd) runs its calls there instead.
  let workingDir = '';
  let inWorkingDir: PathContext = { home: book.home, bases: [] };
  const pathContext = (call: GuardedCall): PathContext => {
    const own = options.workingDir?.();
    if (own !== undefined) {
      const setting = book.workingDir();
      return { home: book.home, bases: call.tool.relativeTo ? call.tool.relativeTo.map((base) => (base === setting ? own : base)) : [own] };
    }
    if (call.tool.relativeTo) return { home: book.home, bases: call.tool.relativeTo };
    const now = book.workingDir();
    if (now !== workingDir) inWorkingDir = { home: book.home, bases: [(workingDir = now)] };
    return inWorkingDir;
  };
  return {
    decide(call) {
      const tool = factsOf(call, book.rules(options.toolSet?.()));
      const verdict = tool.rules.length ? evaluateForTool(tool.rules, call.args, pathContext(call)) : NO_RULE;
      const server = mcpServerOf(call);
      const overridden = book.settings().permissionOverrides?.[call.toolName]?.executionPolicy !== undefined;
      // Only what the user approved is bound to the server's identity: an override or an allow rule.
      let suspended =
        (server && (overridden || verdict.action === 'allow') ? book.serverChange(server) : undefined) ??
        (!overridden && fileDeclaresAuto(call) ? book.toolFiles?.changed(call.toolName, call.tool.source!.file) : undefined);
      // "Always" bound to content (a skill's files): holds as an allow while the content is unchanged.
      let bound: RuleVerdict | undefined;
      if (call.tool.approvalBinding && verdict.action === 'none' && !overridden) {
        const held = call.tool.approvalBinding.check(call.args);
        if (held.state === 'held') bound = { action: 'allow', label: held.label };
        else if (held.state === 'changed') suspended ??= held.note;
      }
      const decision = decideCall({
        verdict: bound ?? (suspended && verdict.action === 'allow' ? { action: 'none' } : verdict),
        level: call.level,
        policy: call.policy,
        readOnly: tool.readOnly,
        builtin: call.builtin,
        ...(suspended ? { suspended } : {}),
        ...(options.unattended?.() ? { unattended: true } : {}),
      });
      return decision;
    },
    addRule: (rule) => book.addRule(rule),
    settled(call, outcome) {
      const server = mcpServerOf(call);
      // "Always" given for the server (or the tool's file) as it is now: approvals hold for that.
      if (server && outcome.by === 'user-always') book.bind(server);
      if (call.tool.approvalBinding && outcome.by === 'user-always') call.tool.approvalBinding.bind(call.args);
      if (!server && call.tool.source?.file && outcome.decision === 'allowed' && outcome.by.startsWith('user-')) book.toolFiles?.approve(call.toolName, call.tool.source.file);
      book.audit?.write({
        sessionId: call.sessionId,
        callId: call.callId,
        tool: call.toolName,
        ...(server ? { server } : {}),
        decision: outcome.decision,
        by: outcome.by,
        ...(outcome.detail ? { detail: outcome.detail } : {}),
        level: call.level,
        argsHash: argsHash(call.args),
        ...(outcome.status ? { status: outcome.status } : {}),
        ...(outcome.durationMs !== undefined ? { durationMs: Math.round(outcome.durationMs) } : {}),
      });
    },
  };
}

interface ToolFacts {
  toolName: string;
  modelName: string;
  readOnly: boolean;
  /** The rule list `rules` was worked out from. */
  list: readonly CompiledRule[] | undefined;
  /** The rules of `list` that name the tool. */
  rules: CompiledRule[];
}

export function argsHash(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}

/** The tool's own file says it runs without asking (the user has not chosen for it). */
function fileDeclaresAuto(call: GuardedCall): boolean {
  const format = call.tool.source?.format;
  return call.policy === 'auto' && call.tool.permission?.executionPolicy === 'auto' && format !== undefined && format !== 'mcp' && format !== 'builtin';
}

function namesOf(call: GuardedCall): string[] {
  return call.modelName === call.toolName ? [call.toolName] : [call.toolName, call.modelName];
}

function mcpServerOf(call: GuardedCall): string | undefined {
  return call.tool.source?.format === 'mcp' ? call.groupName : undefined;
}

/** An MCP server's annotations count only when the user trusts the server. */
function trustedMeta(call: GuardedCall): Record<string, unknown> {
  const meta = call.tool.meta ?? {};
  const mcp = meta.mcp as { annotations?: unknown; trusted?: boolean } | undefined;
  if (!mcp) return meta;
  return mcp.trusted === true ? { annotations: mcp.annotations ?? {} } : {};
}

export type { CallDecision };
