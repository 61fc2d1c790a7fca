// What a skill is once read (agentskills.io: a folder holding SKILL.md, front matter + Markdown,
// and optional scripts/, references/, assets/). Data only: nothing here runs anything.
import type { Diagnostic } from '../../../../shared/tools.ts';

/** Where a skill folder was found: a user folder, a project folder, a `skillRoots` entry, an MCP server. */
export type SkillOriginKind = 'user' | 'project' | 'custom' | 'mcp';

export interface SkillOrigin {
  kind: SkillOriginKind;
  /** Short label used to qualify clashing names (`agents`, `claude`, `codex`, `tooldesk`, `project`, `custom`, `mcp:SERVER`). */
  label: string;
  /** The folder holding skill folders (or the MCP server's name). */
  root: string;
}

export interface SkillFrontMatter {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /** `allowed-tools`: a proposal shown to the user, never a grant. */
  allowedTools?: string[];
}

export interface Skill {
  /** The name the model and the CLI use: the front matter's name, qualified `label:name` when two origins share it. */
  id: string;
  frontMatter: SkillFrontMatter;
  /** The Markdown after the front matter, as written (marking of command lines happens when it is shown). */
  body: string;
  /** 1-based line of SKILL.md where the body starts. */
  bodyLine: number;
  /** Absolute path of the skill's folder (for MCP skills: a local cache or '' when only listed). */
  dir: string;
  /** Absolute path of SKILL.md. */
  file: string;
  origin: SkillOrigin;
  /** Files of the skill, relative to `dir`, `/`-separated, sorted (bounded; see skill-files.ts). */
  files: string[];
  /** Per-file SHA-256 when the source gave them (MCP); local skills are hashed on demand. */
  digests?: Record<string, string>;
}

export interface SkillLoadResult {
  skills: Skill[];
  diagnostics: Diagnostic[];
}
