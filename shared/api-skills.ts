// The API methods of Agent Skills (shared/api.ts extends ApiMethods with these): Settings → Skills
// lists every skill found (enabled or not) with its origin, files, flags and problems; its switch,
// network grant and the tool set made from its `allowed-tools` persist in settings.skills, as
// `tooldesk skills enable|disable` does. `allowed-tools` is a proposal: only the user's accept
// turns it into a tool set, and that set only narrows what is on, never widens it.
import type { Diagnostic } from './tools.ts';

export type SkillOriginKindView = 'user' | 'project' | 'custom' | 'mcp';

export interface SkillView {
  /** The name the model and the CLI use (`label:name` when two origins share a name). */
  id: string;
  name: string;
  description: string;
  origin: { kind: SkillOriginKindView; label: string; root: string };
  /** The skill's folder ('' for an MCP skill only listed). */
  dir: string;
  fileCount: number;
  /** Relative paths, `/`-separated, sorted. */
  files: string[];
  enabled: boolean;
  /** Its scripts may use the network (granted by the user). */
  network: boolean;
  license?: string;
  /** `allowed-tools` as written: a proposal, never granted by the skill. */
  allowedTools: string[];
  /** The tool set (settings.toolSets) the user made from `allowedTools`, active only while the skill is. */
  toolSet?: string;
  /** What `skills check` flags in its files ("file:line message"). */
  flags: string[];
  /** Problems reading it (a name that does not match its folder …). */
  diagnostics: Diagnostic[];
  /** Python packages it declares (PEP 723 blocks, requirements.txt). */
  declaredDeps: string[];
  /** Its own Python environment exists (`skills deps NAME --add PKG`). */
  hasEnv: boolean;
}

export interface SkillRootView {
  kind: SkillOriginKindView;
  label: string;
  root: string;
  /** A project folder not trusted yet: nothing in it is read. */
  untrusted?: boolean;
}

export interface SkillsView {
  skills: SkillView[];
  /** Where skills are looked for, in order. */
  roots: SkillRootView[];
  /** The `skillRoots` setting as written. */
  skillRoots: string[];
  /** Problems of every skill (also of folders that did not load as a skill). */
  diagnostics: Diagnostic[];
}

export interface SkillApiMethods {
  listSkills: { request: Record<string, never>; response: SkillsView };
  /** Switches one skill on or off for every chat (settings.skills[id].enabled). */
  setSkillEnabled: { request: { id: string; enabled: boolean }; response: SkillsView };
  /** Grants (or withdraws) the network to the skill's scripts. */
  setSkillNetwork: { request: { id: string; granted: boolean }; response: SkillsView };
  /** Replaces the `skillRoots` setting (folders holding skill folders; `~/` expands). */
  setSkillRoots: { request: { roots: string[] }; response: SkillsView };
  /**
   * Accept: makes a tool set `skill:ID` from the skill's `allowed-tools` (plus the skills group)
   * and binds it to the skill, active only while the skill is active in a chat. Withdraw: unbinds
   * it and removes that set. `unmatched`: entries naming no tool or group here (left out).
   */
  setSkillToolSet: { request: { id: string; accept: boolean }; response: SkillsView & { unmatched: string[] } };
  /** "New tool" → Agent Skill: a SKILL.md folder from the template in TOOLDESK_HOME/skills. */
  createSkill: { request: { name: string }; response: { id: string; dir: string; files: string[] } };
}

export const SKILL_API_METHODS = ['listSkills', 'setSkillEnabled', 'setSkillNetwork', 'setSkillRoots', 'setSkillToolSet', 'createSkill'] as const;

/** The tool set a skill's accepted `allowed-tools` become. */
export const skillToolSetName = (id: string): string => `skill:${id}`;

/** What a skill's name may be (agentskills.io): 1–64 lowercase letters, digits and single hyphens. */
export const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SKILL_NAME_RULE = '1–64 lowercase letters, digits and single hyphens (the folder gets that name)';

/** Why `name` cannot be a new skill's name, or null. */
export function newSkillNameProblem(name: string): string | null {
  if (!name) return 'a name is required';
  if (name.length > 64 || !SKILL_NAME.test(name)) return `"${name}" is not a valid skill name: use ${SKILL_NAME_RULE}`;
  return null;
}
