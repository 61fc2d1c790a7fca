// Settings → Skills over the runtime's one SkillSource: what the section lists, and its switches
// persisted where `tooldesk skills enable|disable` puts them (settings.skills by id). The source
// follows the settings (open-skill-source.ts), so a switch rebuilds the skills group at once.
import { existsSync } from 'node:fs';
import { skillToolSetName, type SkillsView, type SkillView } from '../../../../shared/api-skills.ts';
import type { Settings, SkillSettings } from '../../../../shared/settings.ts';
import type { SettingsStore } from '../../store/settings-store.ts';
import { declaredDeps } from '../../sources/skills/skill-deps.ts';
import { skillEnabled } from '../../sources/skills/skill-enabled.ts';
import { skillEnvDir } from '../../sources/skills/skill-env.ts';
import { allowedToolsSet } from '../../sources/skills/skill-tool-sets.ts';
import type { SkillSource } from '../../sources/skills/skill-source.ts';
import type { Skill } from '../../sources/skills/skill-types.ts';
import type { ToolGroup } from '../../tools/types.ts';

export interface SkillsService {
  view(): SkillsView;
  setEnabled(id: string, enabled: boolean): SkillsView;
  setNetwork(id: string, granted: boolean): SkillsView;
  setRoots(roots: string[]): SkillsView;
  /** Accept or withdraw the tool set made from `allowed-tools`; returns the entries that matched nothing. */
  setToolSet(id: string, accept: boolean): SkillsView & { unmatched: string[] };
  create(name: string): { id: string; dir: string; files: string[] };
}

export interface SkillsServiceParts {
  source: SkillSource;
  settings: SettingsStore;
  /** The groups loaded now (what `allowed-tools` can match). Contract: cheap, never throws. */
  groups: () => ToolGroup[];
  /** Makes a skill from the template (skill-admin's create). Contract: throws naming the problem. */
  create: (name: string) => { dir: string; files: string[] };
}

/** A thrown error whose message names the skill or the field (the handler makes it an InvalidRequestError). */
export class SkillRequestError extends Error {
  override name = 'SkillRequestError';
}

export function createSkillsService(parts: SkillsServiceParts): SkillsService {
  const { source, settings } = parts;
  const find = (id: string): Skill => {
    const found = source.find(id);
    if ('error' in found) throw new SkillRequestError(found.error);
    return found;
  };
  const patchSkill = (id: string, patch: Partial<SkillSettings>, extra: Partial<Settings> = {}) => {
    const all = { ...(settings.get().skills ?? {}) };
    const next: SkillSettings = { ...all[id], ...patch };
    for (const key of Object.keys(next) as (keyof SkillSettings)[]) if (next[key] === undefined) delete next[key];
    all[id] = next;
    // replace, not update: update deep-merges, so a withdrawn grant or tool set would stay.
    settings.replace({ ...settings.get(), ...extra, skills: all });
  };
  const view = (): SkillsView => {
    const current = settings.get();
    const home = source.home;
    const skills = source.skills().map((skill): SkillView => {
      const chosen = current.skills?.[skill.id];
      return {
        id: skill.id,
        name: skill.frontMatter.name,
        description: skill.frontMatter.description,
        origin: { ...skill.origin },
        dir: skill.dir,
        fileCount: skill.files.length,
        files: skill.files,
        enabled: skillEnabled(skill, current),
        network: chosen?.network === true,
        ...(skill.frontMatter.license ? { license: skill.frontMatter.license } : {}),
        allowedTools: skill.frontMatter.allowedTools ?? [],
        ...(chosen?.toolSet ? { toolSet: chosen.toolSet } : {}),
        flags: source.flags(skill),
        diagnostics: source.diagnostics().filter((d) => d.file === skill.file || d.file === skill.dir),
        declaredDeps: skill.dir ? safe(() => declaredDeps(skill), []) : [],
        hasEnv: existsSync(skillEnvDir(home, skill.id)),
      };
    });
    return { skills, roots: source.roots().map((r) => ({ ...r })), skillRoots: [...(current.skillRoots ?? [])], diagnostics: source.diagnostics() };
  };
  return {
    view,
    setEnabled(id, enabled) {
      patchSkill(find(id).id, { enabled });
      return view();
    },
    setNetwork(id, granted) {
      patchSkill(find(id).id, { network: granted || undefined });
      return view();
    },
    setRoots(roots) {
      const cleaned = roots.map((r) => r.trim()).filter(Boolean);
      const bad = cleaned.find((r) => !/^(~|~\/|\/)/.test(r) && !/^[A-Za-z]:[\\/]/.test(r));
      if (bad) throw new SkillRequestError(`skillRoots: "${bad}" is not an absolute path; write it as /path/to/skills or ~/path`);
      settings.update({ skillRoots: [...new Set(cleaned)] });
      return view();
    },
    setToolSet(id, accept) {
      const skill = find(id);
      const name = skillToolSetName(skill.id);
      const others = (settings.get().toolSets ?? []).filter((s) => s.name !== name);
      if (!accept) {
        patchSkill(skill.id, { toolSet: undefined }, { toolSets: others });
        return { ...view(), unmatched: [] };
      }
      if (!skill.frontMatter.allowedTools?.length) throw new SkillRequestError(`skill ${skill.id} proposes no tools (its SKILL.md has no allowed-tools)`);
      const groups = parts.groups();
      const match = allowedToolsSet(skill, { groups: groups.map((g) => g.name), tools: groups.flatMap((g) => g.tools.map((t) => t.definition.function.name)) });
      patchSkill(skill.id, { toolSet: name }, { toolSets: [...others, match.set] });
      return { ...view(), unmatched: match.unmatched };
    },
    create(name) {
      try {
        const made = parts.create(name);
        const created = source.skills().find((s) => s.dir === made.dir);
        return { id: created?.id ?? name, ...made };
      } catch (error) {
        throw new SkillRequestError((error as Error).message);
      }
    },
  };
}

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
