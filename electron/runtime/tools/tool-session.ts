// A conversation with tools, and the only door to a ToolExecutor: the executor is built here,
// kept private, and every call runs through execute(). A ToolSession owns its executor (and so its
// variables and approval memory), keeps the executor's groups in step with the tool sources and
// its switches in step with the settings, and holds what this conversation chose on top of them.
// The chat, `tools run`, the Tools panel's catalog and every `mcp serve` connection open theirs
// through `createRuntime().toolSession()` (or the factory the runtime hands its own parts).
//
// API (what the next features hang on it):
//   execute(name, args) a call as this conversation may make it: refused with a message for the
//                       model when the conversation's choice leaves the tool (or the skill the
//                       call names) out, else the
//                       executor's pipeline (lookup → enabled → $VAR_REF → validation → approval →
//                       run → format → truncate → cache → result approval). Every caller (chat,
//                       mcp serve, MCP App tool calls, `tools run`) goes through here.
//   queries             definitions(), listGroups(), groupOf(name) (O(1)), tool(name), hasTool,
//                       findTool({server, tool}), checkArgs(), diagnostics(), toolRules(),
//                       effectivePermission(); none changes anything.
//   addBuiltinGroup(g)  a built-in group of this conversation (FindTools, later skills' tools).
//   enableForRun(name)  the tool and its group are on in this session whatever the switches say
//                       (`tools run NAME`: the user named it); kept across re-syncs.
//   approval memory     exportApprovalMemory() / importApprovalMemory(data), saved with a chat.
//   selection()/setSelection(s)   a chat's own tools (null: the global switches apply).
//   onlyGroups          `mcp serve --group`: groups outside it stay off whatever the settings say.
//   setToolSet(name)    a named tool set (settings `toolSets`): narrows the switches for a chat,
//                       or, with `exactToolSet` (`mcp serve --toolset`), is exactly what is on;
//                       its rules join the runtime's and its level is the default level.
//   activeToolSets      sets the conversation earned by what it did (a skill's accepted
//                       `allowed-tools`, while the skill is active): narrow like a tool set.
//                       restoreActivity(results) rebuilds them from a reopened chat's results.
//   skills              setSkillsOff(ids): skills this conversation leaves out (its Tools menu);
//                       with a set naming skills, the skills group is narrowed per conversation
//                       (skill-scope.ts): catalog, enums and refusals are this conversation's.
//   setPermissionLevel  the conversation's level (ask / default / read-only auto / trusted),
//                       applied from the next call.
//   onChanged(l)        after every re-sync (tools reloaded, switches or selection changed).
//   close()             stops the syncing, rejects pending approvals, aborts running tools.
// Enable state is layered in one place (#applySwitches): the conversation's skills group (narrowed
// by its switched-off skills and the sets naming skills) → settings' switches → an exact tool set →
// onlyGroups → selection → a narrowing tool set → active tool sets → enabled for this run. Argument rules are checked
// in the executor (its guard, over the runtime's RuleBook) after $VAR_REF resolution and validation.
import type { PermissionLevel } from '../../../shared/permissions.ts';
import type { Settings } from '../../../shared/settings.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';
import type { Diagnostic, ToolDefinition, ToolExecuteResult, ToolGroupInfo, ToolInfo, ToolPermission } from '../../../shared/tools.ts';
import { Emitter, type Disposer } from '../base/emitter.ts';
import type { ApprovalMemoryData } from './approval/approval-memory.ts';
import { applyEnableState, replaceExecutorGroups, syncExecutorGroups } from './executor-groups.ts';
import { ToolExecutor, type ExecuteOptions } from './tool-executor.ts';
import { applyToolSelection, normalizeSelection, selectionRefusal } from './tool-selection.ts';
import { applyToolSet, enableExactly } from './rules/apply-tool-set.ts';
import { bookCallGuard } from './rules/book-call-guard.ts';
import { findToolSet } from './rules/rule-book.ts';
import { SessionSkills, withSkillsGroup } from './skill-scope.ts';
import type { SessionEvent, ToolGroup } from './types.ts';
import { VariableSystem } from './variables/variable-system.ts';

export type { ToolResultRecord, ToolSessionDeps, ToolSessionOptions, ToolSource } from './tool-session-options.ts';
import type { ToolResultRecord, ToolSessionDeps, ToolSessionOptions } from './tool-session-options.ts';

export type ToolSessionFactory = (options: ToolSessionOptions) => ToolSession;

/** Binds the shared parts once; each call opens one conversation's ToolSession. */
export function toolSessionFactory(deps: ToolSessionDeps): ToolSessionFactory {
  return (options) => new ToolSession(deps, options);
}

export class ToolSession {
  readonly #executor: ToolExecutor;
  readonly #deps: ToolSessionDeps;
  readonly #onlyGroups: readonly string[];
  readonly #changes: Emitter<void>;
  readonly #disposers: Disposer[] = [];
  /** Tools the user named for this run (`tools run NAME`): on whatever the switches say. */
  readonly #forRun = new Set<string>();
  #selection: ChatToolSelection | null;
  #toolSet: string | undefined;
  #level: PermissionLevel | undefined;
  readonly #exactToolSet: boolean;
  readonly #workingDir: (() => string | undefined) | undefined;
  readonly #skills: SessionSkills;
  #closed = false;

  constructor(deps: ToolSessionDeps, options: ToolSessionOptions) {
    this.#deps = deps;
    this.#changes = new Emitter({ onListenerError: (error) => deps.log?.(`a tool session listener failed: ${(error as Error).message}`) });
    this.#onlyGroups = options.onlyGroups ?? [];
    this.#selection = normalizeSelection(options.selection);
    this.#toolSet = options.toolSet;
    this.#level = options.permissionLevel;
    this.#exactToolSet = options.exactToolSet ?? false;
    this.#workingDir = options.workingDir;
    this.#skills = new SessionSkills(deps.skillScope, options.skillsOff);
    const { limits } = deps.settings();
    const executor = new ToolExecutor({
      sessionId: options.sessionId,
      variables: options.variables ?? new VariableSystem({ maxEntries: limits.variableMaxEntries, maxBytes: limits.variableMaxBytes }),
      truncateChars: limits.truncateChars,
      toolTimeoutMs: limits.toolTimeoutMs,
      ...(options.approve ? { approve: options.approve } : {}),
      ...(deps.permissions ? { permissions: deps.permissions } : {}),
      ...(deps.ruleBook ? { guard: bookCallGuard(deps.ruleBook, { toolSet: () => this.#toolSet, ...(options.unattended ? { unattended: options.unattended } : {}), ...(options.workingDir ? { workingDir: options.workingDir } : {}) }) } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    this.#executor = executor;
    const tools = deps.tools ?? { groups: () => [] };
    for (const error of replaceExecutorGroups(executor, this.#skills.others(tools.groups()))) deps.log?.(error);
    this.#applySwitches(deps.settings());
    const offTools = tools.onChanged?.((change) => {
      const groups = this.#skills.others(tools.groups(), change);
      if (change) syncExecutorGroups(executor, groups, change);
      else for (const error of replaceExecutorGroups(executor, groups)) deps.log?.(error);
      this.#applySwitches(deps.settings());
      this.#changes.fire();
    });
    const offSettings = deps.onSettingsChanged?.((settings) => {
      this.#applySwitches(settings);
      this.#changes.fire();
    });
    const offActive = deps.activeToolSets?.onChanged((sessionId) => {
      if (sessionId === this.sessionId) this.#resync();
    });
    for (const off of [offTools, offSettings, offActive]) if (off) this.#disposers.push(off);
  }

  get sessionId(): string {
    return this.#executor.sessionId;
  }

  /** The conversation's variables (cached results, RULE_ variables): read them, journal them. */
  get variables(): VariableSystem {
    return this.#executor.variables;
  }

  // ── the conversation's choice ─────────────────────────────────────────────────────────────

  /** This conversation's tools (null: the global switches apply). A copy. */
  selection(): ChatToolSelection | null {
    return this.#selection ? { tools: [...this.#selection.tools], pinned: [...this.#selection.pinned] } : null;
  }

  /** Replaces the choice (normalised) and applies it now; returns what is kept. */
  setSelection(selection: ChatToolSelection | null): ChatToolSelection | null {
    this.#selection = selection === null ? null : normalizeSelection(selection);
    this.#resync();
    return this.selection();
  }

  /** The tool set this conversation uses, by name (undefined: none). */
  toolSet(): string | undefined {
    return this.#toolSet;
  }

  /** Picks a tool set (undefined: none) and applies it now. */
  setToolSet(name: string | undefined): void {
    if (name === this.#toolSet) return;
    this.#toolSet = name;
    this.#resync();
  }

  /** Skills (ids) this conversation leaves out. A copy. */
  skillsOff(): string[] {
    return this.#skills.off();
  }

  /** Leaves `ids` out of this conversation's skills (its catalog, enums, calls) and applies it now. */
  setSkillsOff(ids: readonly string[] | undefined): void {
    if (this.#skills.setOff(ids)) this.#resync();
  }

  /**
   * A reopened conversation: what its earlier results did is in effect again (skills it activated
   * are active, their accepted tool sets narrow it) without running anything again.
   */
  restoreActivity(results: readonly ToolResultRecord[]): void {
    if (!this.#deps.activeToolSets?.restore || results.length === 0) return;
    if (this.#deps.activeToolSets.restore(this.sessionId, results)) this.#resync();
  }

  /** A warning when this conversation's tool set names skills not offered now (gone, or switched off). */
  toolSetWarning(): string | undefined {
    const set = this.#toolSet ? findToolSet(this.#deps.settings(), this.#toolSet) : undefined;
    return set ? this.#skills.absentWarning(set) : undefined;
  }

  /** The conversation's own level (undefined: its tool set's, else default); applies from the next call. */
  setPermissionLevel(level: PermissionLevel | undefined): void {
    this.#level = level;
    this.#executor.setPermissionLevel(this.#effectiveLevel(this.#deps.settings()));
  }

  /** The level the next call is decided at. */
  permissionLevel(): PermissionLevel {
    return this.#executor.permissionLevel();
  }

  /**
   * `name` (real or model name) and its group are on in this session whatever the switches,
   * the selection or a tool set say: the user named it (`tools run NAME`). False: no such tool.
   */
  enableForRun(name: string): boolean {
    const info = this.#executor.toolInfo(name);
    if (!info) return false;
    this.#forRun.add(info.name);
    this.#resync();
    return true;
  }

  /** Why this conversation refuses a call to `name`, for the model; undefined when it may call it. */
  refusal(name: string): string | undefined {
    if (this.#forRun.has(name)) return undefined;
    return selectionRefusal(this.#executor, this.#selection, name);
  }

  /** Why this conversation refuses this call: the tool (refusal), or a skill it left out. */
  #callRefusal(name: string, args: unknown): string | undefined {
    return this.refusal(name) ?? this.#skills.refusal(this.#executor.getTool(name)?.definition.function.name ?? name, args);
  }

  // ── the one way a call runs ───────────────────────────────────────────────────────────────

  /** One call as this conversation may make it; never throws (see the header). */
  async execute(name: string, args: unknown, options: ExecuteOptions = {}): Promise<ToolExecuteResult> {
    const refusal = this.#callRefusal(name, args);
    const workingDir = this.#workingDir?.();
    if (refusal === undefined) return this.#executor.execute(name, args, workingDir === undefined ? options : { ...options, workingDir });
    return { toolName: name, status: 'ERROR', error: refusal, finalText: refusal, ...(options.callId ? { callId: options.callId } : {}), durationMs: 0 };
  }

  /** Checks arguments like a call would (`$VAR_REF`, the schema) without running anything. */
  checkArgs(name: string, args: unknown): { ok: true } | { ok: false; message: string } {
    return this.#executor.checkArgs(name, args);
  }

  // ── queries ───────────────────────────────────────────────────────────────────────────────

  /** What the model may call now, as OpenAI function definitions. */
  definitions(): ToolDefinition[] {
    return this.#executor.getEnabledToolDefinitions();
  }

  /** Every listed group with its tools, policies and switches (the Tools panel, `tools list`). */
  listGroups(): ToolGroupInfo[] {
    return this.#executor.listGroups();
  }

  /** The group a tool (by real or model name) belongs to, or ''. O(1): one catalog lookup. */
  groupOf(name: string): string {
    return this.#executor.groupOf(name);
  }

  /** Whether `name` (real or model name, built-ins included) is a tool of this session. */
  hasTool(name: string): boolean {
    return this.#executor.getTool(name) !== undefined;
  }

  /** One listed tool as `listGroups` shows it, or undefined. */
  tool(name: string): ToolInfo | undefined {
    return this.#executor.toolInfo(name);
  }

  /** A tool's `meta` (MCP annotations, an app's `ui`), cheap: no info is built. */
  toolMeta(name: string): Record<string, unknown> | undefined {
    return this.#executor.getTool(name)?.meta;
  }

  /** The tool's own one-line summary of `args` (compressArgs), when it has one; never throws. */
  summarize(name: string, args: Record<string, unknown>): string | undefined {
    try {
      return this.#executor.getTool(name)?.compressArgs?.(args);
    } catch {
      return undefined;
    }
  }

  /** The tool an MCP App's `tools/call` names: `tool` of the MCP server `server`, or undefined. */
  findTool(target: { server: string; tool: string }): ToolInfo | undefined {
    const of = (meta: Record<string, unknown> | undefined) => meta?.mcp as { server?: string; tool?: string } | undefined;
    for (const group of this.#executor.listGroups()) {
      const found = group.tools.find((t) => of(t.meta)?.server === target.server && of(t.meta)?.tool === target.tool);
      if (found) return found;
    }
    return undefined;
  }

  /** The policy that applies to a tool now (user override → tool → group → default). */
  effectivePermission(name: string): Required<ToolPermission> | undefined {
    return this.#executor.effectivePermission(name);
  }

  /** Registration problems (name clashes with built-ins, malformed tools). */
  diagnostics(): Diagnostic[] {
    return this.#executor.diagnostics();
  }

  /** The tool part of the system prompt (enabled groups' rule prompts). */
  toolRules(): string {
    return this.#executor.toolRules();
  }

  // ── built-ins, memory, lifecycle ──────────────────────────────────────────────────────────

  /** Adds a built-in group of this conversation (FindTools); it stays through every re-sync. */
  addBuiltinGroup(group: ToolGroup): string[] {
    if (!group.builtin) throw new Error(`addBuiltinGroup: the group "${group.name}" is not marked builtin`);
    return this.#executor.registerToolGroup(group).errors;
  }

  /** The conversation's remembered approvals, to save with it. */
  exportApprovalMemory(): ApprovalMemoryData {
    return this.#executor.exportApprovalMemory();
  }

  /** Merges saved approvals in; returns how many were valid. */
  importApprovalMemory(data: unknown): number {
    return this.#executor.importApprovalMemory(data);
  }

  /** Runs every tool's onSession hook (a chat closing); a hook that throws is logged. */
  notifySession(reason: SessionEvent['reason']): Promise<void> {
    return this.#executor.notifySession(reason);
  }

  /** Contract: `listener` runs after each re-sync (tools, settings, selection); returns a disposer. */
  onChanged(listener: () => void): Disposer {
    return this.#changes.event(listener);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Stops syncing; pending approvals are rejected and running tools aborted. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const dispose of this.#disposers.splice(0)) dispose();
    this.#changes.dispose();
    this.#executor.close();
    this.#deps.closed?.(this);
  }

  #resync(): void {
    this.#applySwitches(this.#deps.settings());
    this.#changes.fire();
  }

  /** Settings' switches, an exact tool set, `onlyGroups`, the selection, then a narrowing tool set. */
  #applySwitches(settings: Settings): void {
    const group = this.#skills.group;
    const found = this.#toolSet ? findToolSet(settings, this.#toolSet) : undefined;
    const set = found && group ? withSkillsGroup(found, group) : found;
    const actives = (this.#deps.activeToolSets?.sets(this.sessionId) ?? []).map((s) => (group ? withSkillsGroup(s, group) : s));
    const sources = this.#deps.tools?.groups() ?? [];
    for (const error of this.#skills.reconcile(this.#executor, sources, set ? [set, ...actives] : actives)) this.#deps.log?.(error);
    applyEnableState(this.#executor, settings);
    this.#executor.setToolSetScope(undefined);
    if (set && this.#exactToolSet) enableExactly(this.#executor, set);
    if (this.#onlyGroups.length > 0) {
      for (const group of this.#executor.listGroups()) {
        if (!group.builtin && !this.#onlyGroups.includes(group.name)) this.#executor.toggleGroupEnabled(group.name, false);
      }
    }
    if (this.#selection) applyToolSelection(this.#executor, this.#selection);
    if (set && !this.#exactToolSet) applyToolSet(this.#executor, set);
    for (const active of actives) applyToolSet(this.#executor, active);
    for (const name of this.#forRun) {
      const group = this.#executor.groupOf(name);
      if (group) this.#executor.toggleGroupEnabled(group, true);
      this.#executor.setToolEnabled(name, true);
    }
    this.#executor.setPermissionLevel(this.#effectiveLevel(settings));
  }

  #effectiveLevel(settings: Settings): PermissionLevel {
    return this.#level ?? (this.#toolSet ? findToolSet(settings, this.#toolSet)?.level : undefined) ?? 'default';
  }
}
