// A conversation with tools: the one place a ToolExecutor is built. A ToolSession owns its
// executor (and so its variables and approval memory), keeps the executor's groups in step with
// the tool sources and its switches in step with the settings, and holds what this conversation
// chose on top of them. The chat, `tools run`, the Tools panel's catalog and every `mcp serve`
// connection take theirs from `createRuntime().toolSession()` (or a ToolSessionFactory it hands out).
//
// API (what the next features hang on it):
//   executor            the pipeline: lookup → enabled → $VAR_REF → validation → approval → run →
//                       format → truncate → cache → result approval. Built here only.
//   execute(name, args) a call as this conversation may make it: refused with a message for the
//                       model when the conversation's choice leaves the tool out, else the
//                       executor's execute(). Every caller (chat, mcp serve, MCP App tool calls)
//                       goes through here, so a rule added here applies to all of them.
//   selection()/setSelection(s)   a chat's own tools (null: the global switches apply).
//   onlyGroups          `mcp serve --group`: groups outside it stay off whatever the settings say.
//   setToolSet(name)    a named tool set (settings `toolSets`): narrows the switches for a chat,
//                       or, with `exactToolSet` (`mcp serve --toolset`), is exactly what is on;
//                       its rules join the runtime's and its level is the default level.
//   setPermissionLevel  the conversation's level (ask / default / read-only auto / trusted),
//                       applied from the next call.
//   onChanged(l)        after every re-sync (tools reloaded, switches or selection changed).
//   close()             stops the syncing, rejects pending approvals, aborts running tools.
// Enable state is layered in one place (#applySwitches): settings' switches → an exact tool set →
// onlyGroups → selection → a narrowing tool set. Argument rules are checked in the executor (its
// guard, over the runtime's RuleBook) after $VAR_REF resolution and validation; MCP App tool
// calls (runtime/apps/) call execute().
import type { PermissionLevel } from '../../../shared/permissions.ts';
import type { Settings } from '../../../shared/settings.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';
import type { ToolExecuteResult } from '../../../shared/tools.ts';
import type { Disposer } from '../base/emitter.ts';
import { applyEnableState, replaceExecutorGroups, syncExecutorGroups, type GroupsChange } from './executor-groups.ts';
import { ToolExecutor, type ExecuteOptions } from './tool-executor.ts';
import { applyToolSelection, normalizeSelection, selectionRefusal } from './tool-selection.ts';
import { applyToolSet, enableExactly } from './rules/apply-tool-set.ts';
import { bookCallGuard } from './rules/book-call-guard.ts';
import { findToolSet, type RuleBook } from './rules/rule-book.ts';
import type { ApprovalCallback, PermissionStore, ToolGroup } from './types.ts';
import { VariableSystem } from './variable-system.ts';

/** Where a conversation's tool groups come from (the runtime's combined source, a test's list). */
export interface ToolSource {
  groups(): ToolGroup[];
  /**
   * Contract: the listener is called after the set of groups changed, with which groups changed
   * when known; returns a disposer.
   */
  onChanged?(listener: (change?: GroupsChange) => void): Disposer;
}

/** What every ToolSession of one runtime shares: the sources, the settings, the user's overrides. */
export interface ToolSessionDeps {
  tools?: ToolSource;
  settings: () => Settings;
  /** Contract: runs after the settings changed; returns a disposer. */
  onSettingsChanged?: (listener: (settings: Settings) => void) => Disposer;
  /** The user's per-tool overrides; "always allow" writes here. */
  permissions?: PermissionStore;
  /** Rules, tool sets and the audit log (permissions as data); absent: policies alone decide. */
  ruleBook?: RuleBook;
  /** Registration problems (name clashes, …), as they happen. */
  log?: (message: string) => void;
  /** Contract: called once, when `session` closes (the runtime forgets it); never throws. */
  closed?: (session: ToolSession) => void;
}

export interface ToolSessionOptions {
  /** Names the cached variables' session and the tools' onSession events. */
  sessionId: string;
  /** A restored session's variables; a new, bounded one by default. */
  variables?: VariableSystem;
  approve?: ApprovalCallback;
  /** This conversation's own choice of tools (a chat's "Tools" button); null follows the switches. */
  selection?: ChatToolSelection | null;
  /** Only these groups may be on (`mcp serve --group`); empty or absent: every enabled group. */
  onlyGroups?: readonly string[];
  /** Where the executor reports what it swallowed (onSession hooks, rulePrompt functions). */
  log?: (message: string) => void;
  /** A named tool set (settings `toolSets`) this conversation uses. */
  toolSet?: string;
  /** The set is exactly what is on (`mcp serve --toolset`) instead of narrowing the switches. */
  exactToolSet?: boolean;
  /** The conversation's own permission level; absent: its tool set's, else `default`. */
  permissionLevel?: PermissionLevel;
  /** Contract: true while nobody watches (a scheduled run's chat); read at every call. Levels then only tighten (decide-call.ts). */
  unattended?: () => boolean;
}

export type ToolSessionFactory = (options: ToolSessionOptions) => ToolSession;

/** Binds the shared parts once; each call opens one conversation's ToolSession. */
export function toolSessionFactory(deps: ToolSessionDeps): ToolSessionFactory {
  return (options) => new ToolSession(deps, options);
}

export class ToolSession {
  readonly executor: ToolExecutor;
  readonly #deps: ToolSessionDeps;
  readonly #onlyGroups: readonly string[];
  readonly #listeners = new Set<() => void>();
  readonly #disposers: Disposer[] = [];
  #selection: ChatToolSelection | null;
  #toolSet: string | undefined;
  #level: PermissionLevel | undefined;
  readonly #exactToolSet: boolean;
  #closed = false;

  constructor(deps: ToolSessionDeps, options: ToolSessionOptions) {
    this.#deps = deps;
    this.#onlyGroups = options.onlyGroups ?? [];
    this.#selection = normalizeSelection(options.selection);
    this.#toolSet = options.toolSet;
    this.#level = options.permissionLevel;
    this.#exactToolSet = options.exactToolSet ?? false;
    const { limits } = deps.settings();
    this.executor = new ToolExecutor({
      sessionId: options.sessionId,
      variables: options.variables ?? new VariableSystem({ maxEntries: limits.variableMaxEntries, maxBytes: limits.variableMaxBytes }),
      truncateChars: limits.truncateChars,
      toolTimeoutMs: limits.toolTimeoutMs,
      ...(options.approve ? { approve: options.approve } : {}),
      ...(deps.permissions ? { permissions: deps.permissions } : {}),
      ...(deps.ruleBook ? { guard: bookCallGuard(deps.ruleBook, { toolSet: () => this.#toolSet, ...(options.unattended ? { unattended: options.unattended } : {}) }) } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    const tools = deps.tools ?? { groups: () => [] };
    for (const error of replaceExecutorGroups(this.executor, tools.groups())) deps.log?.(error);
    this.#applySwitches(deps.settings());
    const offTools = tools.onChanged?.((change) => {
      const groups = tools.groups();
      if (change) syncExecutorGroups(this.executor, groups, change);
      else for (const error of replaceExecutorGroups(this.executor, groups)) deps.log?.(error);
      this.#applySwitches(deps.settings());
      this.#changed();
    });
    const offSettings = deps.onSettingsChanged?.((settings) => {
      this.#applySwitches(settings);
      this.#changed();
    });
    for (const off of [offTools, offSettings]) if (off) this.#disposers.push(off);
  }

  get sessionId(): string {
    return this.executor.sessionId;
  }

  get variables(): VariableSystem {
    return this.executor.variables;
  }

  /** This conversation's tools (null: the global switches apply). A copy. */
  selection(): ChatToolSelection | null {
    return this.#selection ? { tools: [...this.#selection.tools], pinned: [...this.#selection.pinned] } : null;
  }

  /** Replaces the choice (normalised) and applies it now; returns what is kept. */
  setSelection(selection: ChatToolSelection | null): ChatToolSelection | null {
    this.#selection = selection === null ? null : normalizeSelection(selection);
    this.#applySwitches(this.#deps.settings());
    this.#changed();
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
    this.#applySwitches(this.#deps.settings());
    this.#changed();
  }

  /** The conversation's own level (undefined: its tool set's, else default); applies from the next call. */
  setPermissionLevel(level: PermissionLevel | undefined): void {
    this.#level = level;
    this.executor.setPermissionLevel(this.#effectiveLevel(this.#deps.settings()));
  }

  /** Why this conversation refuses a call to `name`, for the model; undefined when it may call it. */
  refusal(name: string): string | undefined {
    return selectionRefusal(this.executor, this.#selection, name);
  }

  /** One call as this conversation may make it; never throws (see the header). */
  async execute(name: string, args: unknown, options: ExecuteOptions = {}): Promise<ToolExecuteResult> {
    const refusal = this.refusal(name);
    if (refusal === undefined) return this.executor.execute(name, args, options);
    return { toolName: name, status: 'ERROR', error: refusal, finalText: refusal, ...(options.callId ? { callId: options.callId } : {}), durationMs: 0 };
  }

  /** The group a tool (by real or model name) belongs to, or ''. */
  groupOf(name: string): string {
    for (const group of this.executor.listGroups()) {
      if (group.tools.some((t) => t.name === name || t.modelName === name)) return group.name;
    }
    return '';
  }

  /** Contract: `listener` runs after each re-sync (tools, settings, selection); returns a disposer. */
  onChanged(listener: () => void): Disposer {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Stops syncing; pending approvals are rejected and running tools aborted. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const dispose of this.#disposers.splice(0)) dispose();
    this.#listeners.clear();
    this.executor.close();
    this.#deps.closed?.(this);
  }

  /** Settings' switches, an exact tool set, `onlyGroups`, the selection, then a narrowing tool set. */
  #applySwitches(settings: Settings): void {
    const set = this.#toolSet ? findToolSet(settings, this.#toolSet) : undefined;
    applyEnableState(this.executor, settings);
    if (set && this.#exactToolSet) enableExactly(this.executor, set);
    if (this.#onlyGroups.length > 0) {
      for (const group of this.executor.listGroups()) {
        if (!group.builtin && !this.#onlyGroups.includes(group.name)) this.executor.toggleGroupEnabled(group.name, false);
      }
    }
    if (this.#selection) applyToolSelection(this.executor, this.#selection);
    if (set && !this.#exactToolSet) applyToolSet(this.executor, set);
    this.executor.setPermissionLevel(this.#effectiveLevel(settings));
  }

  #effectiveLevel(settings: Settings): PermissionLevel {
    return this.#level ?? (this.#toolSet ? findToolSet(settings, this.#toolSet)?.level : undefined) ?? 'default';
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#deps.log?.(`a tool session listener failed: ${(error as Error).message}`);
      }
    }
  }
}
