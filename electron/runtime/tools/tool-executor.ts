// One per chat session (seed 002's ToolExecutor): registers tools and groups, offers the enabled
// ones to the model, and runs a call through lookup → enabled → $VAR_REF → validation →
// approval → run → format → truncate → cache → hint → result approval. execute() never throws.
import type {
  Diagnostic,
  ExecutionPolicy,
  ToolDefinition,
  ToolErrorResult,
  ToolExecuteResult,
  ToolGroupInfo,
  ToolInfo,
  ToolPermission,
  ToolUpdate,
} from '../../../shared/tools.ts';
import { DEFAULT_LIMITS } from '../../../shared/settings.ts';
import type { ApprovalMemoryData } from './approval/approval-memory.ts';
import { ApprovalGate, resultAsks, withToolDetail, type ApprovalSubject, type GateOutcome } from './approval/approval-gate.ts';
import { closeNamesHint } from './close-names.ts';
import { parseToolArgs } from './args/parse-tool-args.ts';
import { errorText, RunningTools, runTool, type RunToolOptions } from './run-tool.ts';
import { prepareArgs, type PreparedArgs } from './args/prepare-args.ts';
import { DEFAULT_GROUP, toToolInfo, ToolCatalog, type GroupRegisterResult, type RegisteredTool, type RegisterResult, type ToolSetScope } from './tool-catalog.ts';
import { addSkillRules, restoreMissingRules, ruleVariableName, toolRulesText } from './tool-rules.ts';
import { DEFAULT_TRUNCATE_CHARS } from './result/truncate-content.ts';
import type { ApprovalCallback, PermissionStore, SessionEvent, Tool, ToolContext, ToolGroup } from './types.ts';
import { varRefUses } from './variables/var-ref-uses.ts';
import { notifySessionHooks } from './session-hooks.ts';
import { callInspection, withCallTrace, type CallTrace } from './call-trace.ts';
import { boundError, deniedByRule, errorResult, notAllowed, resultWithheld, shapeSuccess } from './result/shape-result.ts';
import type { ToolCallInspection } from '../../../shared/tool-inspection.ts';
import { VariableSystem, type VariableChangeListener } from './variables/variable-system.ts';
import type { PermissionLevel } from '../../../shared/permissions.ts';
import { decideWithGuard, outcomeOf, settleWithGuard, type CallGuard, type DecidedCall } from './rules/call-guard.ts';
import type { CallDecision } from './rules/decide-call.ts';
import { createVarsToolGroup, VARS_GROUP } from './variables/vars-tools.ts';
import { checkEditedArgs } from './approval/edited-args.ts';
import { reviewSavedResult, type SavedResult } from './result/saved-result.ts';

/** The gate's answer for an `auto` policy, without a call into it. */
const AUTO_ALLOWED: GateOutcome = Object.freeze({ allowed: true, by: 'policy' });

export const DEFAULT_TOOL_TIMEOUT_MS = DEFAULT_LIMITS.toolTimeoutMs;

export interface ToolExecutorOptions {
  sessionId: string;
  variables?: VariableSystem;
  approve?: ApprovalCallback;
  /** The user's per-tool overrides; "always allow" writes here. */
  permissions?: PermissionStore;
  /** Default truncation limit in characters (8000). */
  truncateChars?: number;
  /** Default timeout of a tool run, ms (30 s); a tool's own timeoutMs wins. */
  toolTimeoutMs?: number;
  /** How long a timed-out or aborted tool may take to stop before its result is given anyway, ms (2 s). */
  stopGraceMs?: number;
  /** Bound on what $VAR_REF expansion may produce per call, characters (16 Mi). */
  maxExpandedChars?: number;
  /** Where swallowed errors (onSession hooks, rulePrompt functions, the store) are reported. */
  log?: (message: string) => void;
  /** Rules on the resolved arguments, checked before the policy; hears how each call ended (audit). */
  guard?: CallGuard;
  /** The chat's permission level (default `default`); setPermissionLevel changes it for the next call. */
  permissionLevel?: PermissionLevel;
}

export interface ExecuteOptions {
  /** The model's tool-call id; names the cached variables. Generated when absent. */
  callId?: string;
  signal?: AbortSignal;
  onUpdate?: (update: ToolUpdate) => void;
  /** The chat the call belongs to (see ToolContext.conversation). */
  conversation?: ToolContext['conversation'];
  /** Ask the user first whatever the policy, memory or an allow rule say (a call cut off by a restart), with this note; a deny still wins. */
  askAgain?: string;
  workingDir?: string; // see ToolContext.workingDir
  /** The call ran before a restart and its result waited for approval: ask about it again, never run it (saved-result.ts). */
  savedResult?: SavedResult;
}

type Args = Record<string, unknown>;

export class ToolExecutor {
  readonly sessionId: string;
  readonly variables: VariableSystem;
  private readonly catalog = new ToolCatalog();
  private readonly gate: ApprovalGate;
  /** Aborted by close(): rejects pending approvals. */
  private readonly lifetime = new AbortController();
  /** Ended by close(): stops running tools. */
  private readonly running = new RunningTools();
  private readonly truncateChars: number;
  private readonly toolTimeoutMs: number;
  private readonly stopGraceMs: number | undefined;
  private readonly maxExpandedChars: number | undefined;
  private readonly log: (message: string) => void;
  private readonly guard: CallGuard | undefined;
  private level: PermissionLevel;

  constructor(options: ToolExecutorOptions) {
    this.guard = options.guard;
    this.level = options.permissionLevel ?? 'default';
    this.sessionId = options.sessionId;
    this.variables = options.variables ?? new VariableSystem();
    this.truncateChars = options.truncateChars ?? DEFAULT_TRUNCATE_CHARS;
    this.toolTimeoutMs = options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.stopGraceMs = options.stopGraceMs;
    this.maxExpandedChars = options.maxExpandedChars;
    this.log = options.log ?? (() => {});
    this.gate = new ApprovalGate({
      sessionId: this.sessionId,
      approve: options.approve,
      permissions: options.permissions,
      addRule: (rule) => this.guard?.addRule?.(rule),
      log: this.log,
    });
    this.registerToolGroup(createVarsToolGroup(this.variables));
    // A restored session may predate the groups registered now: put their rules back.
    this.variables.onChange((change) => {
      if (change.kind === 'restore' || change.kind === 'clear') restoreMissingRules(this.variables, this.catalog.allGroups());
    });
  }

  // ── registration ──────────────────────────────────────────────────────────────────────────

  /** Adds one tool to `groupName` (created disabled when new). A taken name is refused. */
  registerTool(tool: Tool, groupName: string = DEFAULT_GROUP): RegisterResult {
    return this.catalog.registerTool(tool, groupName);
  }

  /** The group starts disabled, its tools enabled; its skill rules become RULE variables. */
  registerToolGroup(group: ToolGroup): GroupRegisterResult {
    const result = this.catalog.registerToolGroup(group);
    addSkillRules(this.variables, group);
    return result;
  }

  /** Removes the group's tools and rules. The built-in `vars` group stays. */
  unregisterToolGroup(name: string): boolean {
    if (name === VARS_GROUP) return false;
    const removed = this.catalog.unregisterToolGroup(name);
    if (!removed) return false;
    for (const ruleName of Object.keys(removed.group.declareSkillRules ?? {})) {
      this.variables.remove(ruleVariableName(name, ruleName));
    }
    return true;
  }

  /** Registration problems (name clashes, malformed tools) so far. */
  diagnostics(): Diagnostic[] {
    return this.catalog.diagnostics();
  }

  /** By real name or by the alias the model sees. */
  getTool(name: string): Tool | undefined {
    return this.catalog.resolve(name)?.tool;
  }

  /** The listed group a tool (by real or model name) belongs to, or '' (unknown, or of an unlisted built-in group). O(1). */
  groupOf(name: string): string {
    const entry = this.catalog.resolve(name);
    return entry && !entry.unlisted ? entry.groupName : '';
  }

  /** One tool as the Tools panel shows it (policy and switch included), or undefined. */
  toolInfo(name: string): ToolInfo | undefined {
    const entry = this.catalog.resolve(name);
    return entry && !entry.unlisted ? toToolInfo(entry, this.permissionOf(entry), this.catalog.isToolEnabled(entry.name)) : undefined;
  }

  /** The tool `name` calls is of an unlisted built-in group (FindTools): no selection applies to it. */
  isUnlisted(name: string): boolean {
    return this.catalog.resolve(name)?.unlisted === true;
  }

  // ── enable state ──────────────────────────────────────────────────────────────────────────

  isGroupEnabled(name: string): boolean {
    return this.catalog.isGroupEnabled(name);
  }

  toggleGroupEnabled(name: string, enabled?: boolean): boolean {
    return this.catalog.toggleGroupEnabled(name, enabled);
  }

  isToolEnabled(name: string): boolean {
    return this.catalog.isToolEnabled(name);
  }

  /** The tool set the switches are narrowed to, named in refusals; undefined when none. */
  setToolSetScope(scope: ToolSetScope | undefined): void {
    this.catalog.setToolSetScope(scope);
  }

  setToolEnabled(name: string, enabled: boolean): void {
    this.catalog.setToolEnabled(name, enabled);
  }

  /** What the model may call now, as clean OpenAI function definitions. */
  getEnabledToolDefinitions(): ToolDefinition[] {
    return this.catalog.definitions();
  }

  /** The tool part of the system prompt. */
  toolRules(): string {
    return toolRulesText(this.catalog, this.log);
  }

  listGroups(): ToolGroupInfo[] {
    return this.catalog.allGroups().map((group) => ({
      name: group.name,
      enabled: this.catalog.isGroupEnabled(group.name),
      builtin: group.builtin,
      ...(group.group.enabledByDefault ? { enabledByDefault: true } : {}),
      tools: group.toolNames
        .map((name) => this.catalog.resolve(name))
        .filter((entry): entry is RegisteredTool => entry !== undefined)
        .map((entry) => toToolInfo(entry, this.permissionOf(entry), this.catalog.isToolEnabled(entry.name))),
    }));
  }

  /** The policy that applies to a tool now (user override → tool → group → default). */
  effectivePermission(name: string): Required<ToolPermission> | undefined {
    const entry = this.catalog.resolve(name);
    return entry ? this.permissionOf(entry) : undefined;
  }

  // ── approvals ─────────────────────────────────────────────────────────────────────────────

  /** Applies from the next call on (a call waiting for approval keeps the level it started with). */
  setPermissionLevel(level: PermissionLevel): void {
    this.level = level;
  }

  permissionLevel(): PermissionLevel {
    return this.level;
  }

  setApprovalCallback(callback: ApprovalCallback | undefined): void {
    this.gate.setCallback(callback);
  }

  /** The session's remembered decisions, to persist with it. */
  exportApprovalMemory(): ApprovalMemoryData {
    return this.gate.exportMemory();
  }

  /** Merges remembered decisions in; returns how many were valid. */
  importApprovalMemory(data: ApprovalMemoryData | unknown): number {
    return this.gate.importMemory(data);
  }

  // ── variables and session lifecycle ───────────────────────────────────────────────────────

  /** Called after every variable change (sessions persist variables with it). Returns a disposer. */
  onVariablesChanged(listener: VariableChangeListener): () => void {
    return this.variables.onChange(listener);
  }

  /** Runs every tool's onSession hook; a hook that throws is logged, never fatal. */
  notifySession(reason: SessionEvent['reason']): Promise<void> {
    return notifySessionHooks(this.catalog, { reason, sessionId: this.sessionId }, this.log);
  }

  /** Session closed: pending approvals are rejected and running tools aborted. */
  close(): void {
    const reason = new Error('session closed');
    this.lifetime.abort(reason);
    this.running.end(reason);
  }

  // ── execute ───────────────────────────────────────────────────────────────────────────────

  async execute(name: string, args: unknown, options: ExecuteOptions = {}): Promise<ToolExecuteResult> {
    const started = performance.now();
    const callId = options.callId || newCallId();
    let result: ToolExecuteResult;
    // Filled once the call is decided, for a guard that hears how calls end (the audit log).
    const decided: DecidedCall | undefined = this.guard?.settled ? {} : undefined;
    try {
      result = await this.run(name, args, callId, options, decided);
    } catch (error) {
      // Every known failure is already a result; this only guards against our own bugs.
      const message = `Internal error while running ${name}: ${errorText(error)}`;
      result = { status: 'ERROR', error: message, finalText: message };
    }
    result.callId = callId;
    result.durationMs = performance.now() - started;
    if (decided) settleWithGuard(this.guard, decided, result, this.log);
    return result;
  }

  private async run(name: string, rawArgs: unknown, callId: string, options: ExecuteOptions, decided: DecidedCall | undefined): Promise<ToolExecuteResult> {
    const arrived = performance.now();
    const entry = this.catalog.resolve(name);
    if (!entry) {
      const hint = closeNamesHint(name, this.catalog.executableTools().map((t) => t.modelName));
      const message = `Tool "${name}" does not exist.${hint} Only call the tools you were given.`;
      return { status: 'NOT_FOUND', error: message, finalText: message };
    }
    const refused = this.catalog.whyNotExecutable(entry);
    if (refused) return failed(entry, refused.forModel, refused.forUser);

    const parsed = parseToolArgs(rawArgs);
    if (typeof parsed === 'string') return failed(entry, parsed);
    const prepared = this.prepareArgs(entry, parsed);
    if (!prepared.ok) return failed(entry, prepared.message);
    let { args, limit } = prepared;
    const warnings = prepared.warnings;
    const varRefs = prepared.usedRefs ? varRefUses(parsed, this.variables) : [];

    // Made only when someone is asked: a combined signal costs a WeakRef per call. No closures
    // are made per call on this path either: they were a third of a fast call's time.
    let combined: AbortSignal | undefined;
    const permission = this.permissionOf(entry);
    // Permissions as data: rules see the resolved, validated arguments; deny wins over everything.
    const decision = this.decide(entry, callId, args, permission.executionPolicy, decided);
    if (options.savedResult && decision.kind !== 'deny') {
      if (decided) decided.outcome = outcomeOf(decision, { allowed: true, by: 'remembered' }); // approved before the restart
      return reviewSavedResult(this.gate, entry, subjectOf(entry, callId, args, varRefs, decision), options.savedResult, options.askAgain, this.callSignal(options));
    }
    const asking = performance.now();
    const gate =
      decision.kind === 'deny'
        ? { allowed: false as const, reason: decision.reason, by: decision.by }
        : options.askAgain !== undefined
          ? await this.gate.askAgain({ ...subjectOf(entry, callId, args, varRefs, decision), note: options.askAgain }, (combined ??= this.callSignal(options)))
          : decision.kind === 'allow'
            ? { allowed: true as const, by: decision.by }
            : decision.policy === 'auto'
              ? AUTO_ALLOWED
              : await this.gate.execution(subjectOf(entry, callId, args, varRefs, decision), decision.policy, (combined ??= this.callSignal(options)));
    if (decided) decided.outcome = outcomeOf(decision, gate);
    const approved = performance.now();
    const timings = { queuedMs: asking - arrived, approvalMs: approved - asking, runningMs: 0, formattingMs: 0, resultApprovalMs: 0 };
    if (decision.kind === 'deny') return deniedByRule(entry, decision.reason, callInspection(args, varRefs, timings));
    if (!gate.allowed) return notAllowed(entry, gate.reason, callInspection(args, varRefs, timings), gate.by === 'no-approver');
    let editedNote = '';
    let editedArgs: Args | undefined;
    if (gate.args) {
      // The user edited the arguments on the card: validation, $VAR_REF and the rules see them again.
      editedArgs = gate.args;
      const again = checkEditedArgs(gate.args, (a) => this.prepareArgs(entry, a), (a) => this.decide(entry, callId, a, permission.executionPolicy, decided));
      if (!again.ok) {
        const inspection = callInspection(gate.args, varRefs, timings);
        if (again.denied && decided) decided.outcome = outcomeOf(again.denied, gate);
        return { ...(again.denied ? deniedByRule(entry, again.message, inspection) : failed(entry, again.message)), editedArgs, inspection };
      }
      ({ args, limit } = again);
      warnings.push(...again.warnings);
      editedNote = `Note: the user changed the arguments before approving; the call ran with ${JSON.stringify(gate.args)}.\n\n`;
    }

    // Absent options stay undefined rather than spread in: runTool reads them the same either way.
    const runOptions: RunToolOptions = {
      callId,
      sessionId: this.sessionId,
      timeoutMs: entry.tool.timeoutMs ?? this.toolTimeoutMs,
      lifetime: this.running,
      onUpdate: options.onUpdate,
      signal: options.signal,
      conversation: options.conversation,
      workingDir: options.workingDir,
      stopGraceMs: this.stopGraceMs,
    };
    // Only a tool loaded from a file or a server starts processes, MCP calls or a tool host to trace;
    // an in-process tool runs outside AsyncLocalStorage, which costs every promise while it is on.
    const trace: CallTrace | undefined = entry.tool.source ? { processes: [] } : undefined;
    const outcome = await (trace ? withCallTrace(trace, () => runTool(entry.tool, args, runOptions)) : runTool(entry.tool, args, runOptions));
    const ran = performance.now();
    timings.runningMs = ran - approved;
    const result =
      outcome.kind === 'ok' && outcome.run.status !== 'ERROR'
        ? shapeSuccess(this.variables, entry, args, callId, limit, outcome.run, warnings)
        : boundError(this.variables, entry, args, callId, limit, errorResult(entry, args, outcome), warnings);
    timings.formattingMs = performance.now() - ran;
    if (warnings.length) result.warnings = [...(result.warnings ?? []), ...warnings];
    if (editedArgs) {
      result.editedArgs = editedArgs;
      result.finalText = editedNote + result.finalText;
    }
    result.inspection = callInspection(args, varRefs, timings, trace);

    const check = { status: result.status, text: result.finalText };
    const askingResult = performance.now();
    const approval = resultAsks(permission.resultApprovalPolicy, result.status)
      ? await this.gate.result(subjectOf(entry, callId, args, varRefs, decision), permission.resultApprovalPolicy, check, (combined ??= this.callSignal(options)))
      : AUTO_ALLOWED;
    timings.resultApprovalMs = performance.now() - askingResult;
    if (approval.allowed) return result;
    // The model must not reach a withheld result through its variables either.
    if (result.cacheVarResult) this.variables.remove(result.cacheVarResult);
    if (result.cacheVarArgs) this.variables.remove(result.cacheVarArgs);
    return resultWithheld(entry, approval.reason, result, editedArgs);
  }

  /**
   * Checks arguments without running anything: `$VAR_REF` resolution and the schema, with the
   * messages the model would get. The approval card's "Edit arguments" form validates live with it.
   */
  checkArgs(name: string, rawArgs: unknown): { ok: true } | { ok: false; message: string } {
    const entry = this.catalog.resolve(name);
    if (!entry) return { ok: false, message: `Tool "${name}" does not exist.` };
    const parsed = parseToolArgs(rawArgs);
    if (typeof parsed === 'string') return { ok: false, message: parsed };
    const prepared = this.prepareArgs(entry, parsed);
    return prepared.ok ? { ok: true } : { ok: false, message: prepared.message };
  }

  private decide(entry: RegisteredTool, callId: string, args: Args, policy: ExecutionPolicy, decided: DecidedCall | undefined): CallDecision {
    const builtin = this.catalog.groupOf(entry)?.builtin === true;
    const { name: toolName, modelName, groupName, tool } = entry;
    const call = { sessionId: this.sessionId, callId, toolName, modelName, groupName, tool, builtin, args, policy, level: this.level };
    if (decided) decided.call = call;
    return decideWithGuard(this.guard, call);
  }

  /** What stops a wait on the user: the caller's signal or the session's end. */
  private callSignal(options: ExecuteOptions): AbortSignal {
    return options.signal ? AbortSignal.any([options.signal, this.lifetime.signal]) : this.lifetime.signal;
  }

  private prepareArgs(entry: RegisteredTool, parsed: Args): PreparedArgs {
    return prepareArgs(entry, parsed, { variables: this.variables, maxExpandedChars: this.maxExpandedChars, truncateChars: this.truncateChars });
  }

  private permissionOf(entry: RegisteredTool): Required<ToolPermission> {
    return this.gate.permissionOf(entry.name, entry.tool, this.catalog.groupOf(entry)?.group);
  }
}

/** What an approval card or the audit shows of a call. */
function subjectOf(entry: RegisteredTool, callId: string, args: Args, varRefs: ToolCallInspection['varRefs'], decision: CallDecision): ApprovalSubject {
  const subject: ApprovalSubject = { toolName: entry.name, groupName: entry.groupName, callId, args };
  if (varRefs.length) subject.varRefs = varRefs;
  if (decision.kind === 'policy' && decision.note) subject.note = decision.note;
  return withToolDetail(subject, entry.tool);
}

/** `message` is what the model reads; `forUser` (when it differs) what the chat shows. */
function failed(entry: RegisteredTool, message: string, forUser = message): ToolErrorResult {
  return { toolName: entry.name, status: 'ERROR', error: forUser, finalText: message };
}

function newCallId(): string {
  return `call_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

