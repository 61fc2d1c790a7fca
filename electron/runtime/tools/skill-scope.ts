// A conversation's own view of the skills (issue #34). The runtime has one skills group (its
// catalog, `activate_skill`'s enum, the skill tools), built from the skills switched on in
// Settings → Skills. A conversation narrows it further: skills switched off in its Tools menu
// (ChatSettings.skillsOff) and, when its tool set names skills (ToolSet.skills), every skill the
// set does not name are left out of what this conversation registers — its catalog and enums
// never name them, and a call naming one is refused with the reason. Other conversations are
// untouched. A set naming no skill leaves the group as it is (offered whole when the set names
// the `skills` group, off when it does not: the behaviour from before sets could name skills).
import type { ToolSet } from '../../../shared/permissions.ts';
import type { GroupsChange } from './executor-groups.ts';
import type { ToolGroup } from './types.ts';

/** What a runtime's skills give each ToolSession (sources/skills implements it). */
export interface SkillScopePort {
  /** The skills group's name. */
  readonly group: string;
  /** The skills the group offers now, by id. Contract: cheap, never throws. */
  ids(): readonly string[];
  /**
   * `group` with the `hidden` skills left out of its catalog and enums: `group` itself when it
   * offers none of them, null when it offers nothing else. Contract: the same object for the
   * same group and hidden set (cached), never throws.
   */
  narrow(group: ToolGroup, hidden: ReadonlySet<string>): ToolGroup | null;
  /** The skill a call of `tool` names in `args`; undefined when `tool` is no skill tool. Contract: never throws. */
  skillOf(tool: string, args: Record<string, unknown>): string | undefined;
}

/** Where the narrowed group goes (the conversation's executor). */
export interface SkillsGroupHost {
  registerToolGroup(group: ToolGroup): { errors: string[] };
  unregisterToolGroup(name: string): unknown;
}

/** Why each skill is left out of a conversation: its Tools menu first, then the sets naming skills. */
export function hiddenSkills(ids: readonly string[], off: readonly string[], sets: readonly ToolSet[]): Map<string, string> {
  const hidden = new Map<string, string>();
  const offSet = new Set(off);
  const naming = sets.filter((s) => s.skills?.length);
  for (const id of ids) {
    if (offSet.has(id)) {
      hidden.set(id, `Skill ${id} is switched off for this chat, so it cannot be used here. If it is needed, ask the user to switch it on in the chat's Tools menu.`);
      continue;
    }
    const outside = naming.find((s) => !s.skills!.includes(id));
    if (outside) hidden.set(id, `Skill ${id} is not in this chat's tool set "${outside.name}" (its skills: ${outside.skills!.join(', ')}), so it cannot be used here.`);
  }
  return hidden;
}

/**
 * The warning for a set naming skills that are not offered now (not found, or switched off in
 * Settings → Skills), as for a group that is missing: the set still works with the rest.
 */
export function absentSkillsWarning(set: ToolSet, offered: readonly string[]): string | undefined {
  const absent = (set.skills ?? []).filter((id) => !offered.includes(id));
  if (absent.length === 0) return undefined;
  const names = absent.map((id) => `skill:${id}`).join(', ');
  return `tool set "${set.name}": ${names} ${absent.length === 1 ? 'is' : 'are'} not loaded or switched off now (skills on: ${offered.join(', ') || 'none'}); the set offers only the skills it names that are.`;
}

/** A set naming skills names the skills group too: its tools are how those skills are used. */
export function withSkillsGroup(set: ToolSet, group: string): ToolSet {
  if (!set.skills?.length || set.groups?.includes(group)) return set;
  return { ...set, groups: [...(set.groups ?? []), group] };
}

/**
 * One conversation's skills: which it switched off, and the skills group as it registers it.
 * The ToolSession registers every other group as the source offers it and this one through here.
 */
export class SessionSkills {
  readonly #port: SkillScopePort | undefined;
  #off: string[];
  #hidden = new Map<string, string>();
  /** The narrowed group the executor holds now; undefined: unknown (registered by someone else, or removed). */
  #registered: ToolGroup | null | undefined;

  constructor(port: SkillScopePort | undefined, off: readonly string[] | undefined) {
    this.#port = port;
    this.#off = normalizeOff(off);
  }

  /** The skills group's name, when this runtime has skills. */
  get group(): string | undefined {
    return this.#port?.group;
  }

  off(): string[] {
    return [...this.#off];
  }

  /** Replaces the switched-off skills; false when nothing changed. */
  setOff(off: readonly string[] | undefined): boolean {
    const next = normalizeOff(off);
    if (next.join('\n') === this.#off.join('\n')) return false;
    this.#off = next;
    return true;
  }

  /**
   * The source's groups without the skills group (registered by `reconcile` alone). `change`: the
   * groups the caller re-registers now (absent: all of them, which drops the skills group too).
   */
  others(groups: ToolGroup[], change?: GroupsChange): ToolGroup[] {
    const port = this.#port;
    if (!port) return groups;
    if (!change || [...change.added, ...change.removed, ...change.updated].includes(port.group)) this.#registered = undefined;
    return groups.filter((g) => g.name !== port.group);
  }

  /** Registers the skills group as this conversation sees it, when that changed; returns registration errors. */
  reconcile(host: SkillsGroupHost, groups: ToolGroup[], sets: readonly ToolSet[]): string[] {
    const port = this.#port;
    if (!port) return [];
    this.#hidden = hiddenSkills(port.ids(), this.#off, sets);
    const source = groups.find((g) => g.name === port.group);
    const next = source ? port.narrow(source, new Set(this.#hidden.keys())) : null;
    if (next === this.#registered) return [];
    host.unregisterToolGroup(port.group);
    this.#registered = next;
    return next ? host.registerToolGroup(next).errors : [];
  }

  /** absentSkillsWarning for `set` over the skills offered now; undefined without skills. */
  absentWarning(set: ToolSet): string | undefined {
    return this.#port && set.skills?.length ? absentSkillsWarning(set, this.#port.ids()) : undefined;
  }

  /** Why this conversation refuses a call of `tool` naming a skill it left out; undefined otherwise. */
  refusal(tool: string, args: unknown): string | undefined {
    if (!this.#port || this.#hidden.size === 0) return undefined;
    const object: unknown = typeof args === 'string' ? parseObject(args) : args;
    if (!object || typeof object !== 'object' || Array.isArray(object)) return undefined;
    const id = this.#port.skillOf(tool, object as Record<string, unknown>);
    return id === undefined ? undefined : this.#hidden.get(id);
  }
}

function normalizeOff(off: readonly string[] | undefined): string[] {
  return [...new Set((off ?? []).filter((id) => typeof id === 'string' && id.length > 0))].sort();
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
