// What a ToolSession is built over: the runtime's shared parts (ToolSessionDeps: sources,
// settings, rules, the skills' per-conversation ports) and one conversation's own choices
// (ToolSessionOptions). tool-session.ts re-exports them.
import type { PermissionLevel, ToolSet } from '../../../shared/permissions.ts';
import type { Settings } from '../../../shared/settings.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';
import type { Disposer } from '../base/emitter.ts';
import type { GroupsChange } from './executor-groups.ts';
import type { RuleBook } from './rules/rule-book.ts';
import type { SkillScopePort } from './skill-scope.ts';
import type { ToolSession } from './tool-session.ts';
import type { ApprovalCallback, PermissionStore, ToolGroup } from './types.ts';
import type { VariableSystem } from './variables/variable-system.ts';

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
  /**
   * Tool sets a conversation is in because of what it did (a skill's accepted `allowed-tools`,
   * while that skill is active). They only narrow. Contract: `sets` is cheap and never throws;
   * `onChanged` calls back with the session whose sets changed and returns a disposer.
   */
  activeToolSets?: {
    sets(sessionId: string): ToolSet[];
    onChanged(listener: (sessionId: string) => void): Disposer;
    /**
     * A reopened conversation's tool results (oldest first): what it did before is in effect
     * again. Contract: never throws; true when a set may have changed.
     */
    restore?(sessionId: string, results: readonly ToolResultRecord[]): boolean;
  };
  /** The runtime's skills group as each conversation narrows it (skill-scope.ts). */
  skillScope?: SkillScopePort;
}

/** A tool result as a conversation keeps it (what `restoreActivity` reads). */
export interface ToolResultRecord {
  toolName: string;
  /** What the model saw. */
  content: string;
  status: string;
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
  /** Skills (ids) this conversation leaves out (a chat's Tools menu). */
  skillsOff?: readonly string[];
  /** Contract: true while nobody watches (a scheduled run's chat); read at every call. Levels then only tighten (decide-call.ts). */
  unattended?: () => boolean;
  /**
   * Contract: the folder this conversation's calls run in when it has its own (a scheduled run's
   * --cwd), else undefined (the working-folder setting); read at every call. Relative paths in
   * the rules' checks mean this folder then.
   */
  workingDir?: () => string | undefined;
}
