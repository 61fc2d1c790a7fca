// The live set of skills as a tool group source: reads the skill roots (nothing runs), keeps
// skills from MCP servers beside them, watches the folders and re-reads on change (hot reload like
// the other formats), and offers one `skills` group built from the enabled ones. A call in flight
// keeps the Tool objects it started with; a change makes new ones.
import { watch, type FSWatcher } from 'node:fs';
import type { Settings } from '../../../../shared/settings.ts';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { Emitter, type Disposer } from '../../base/emitter.ts';
import { diffGroups, type ToolGroupSource, type ToolsChange } from '../../tools/tools-change.ts';
import type { SkillScopePort } from '../../tools/skill-scope.ts';
import type { ToolGroup } from '../../tools/types.ts';
import type { SourceContext } from '../types.ts';
import { ActiveSkills } from './active-skills.ts';
import { qualifyClashes, scanSkillRoots, type SkillParseCache } from './scan-skills.ts';
import { SkillApprovals } from './skill-approvals.ts';
import { skillEnabled } from './skill-enabled.ts';
import { SkillDigests } from './skill-files.ts';
import { activeSkillToolSets } from './skill-tool-sets.ts';
import { flagText, SkillFlagCache } from './skill-flags.ts';
import type { SkillRoot } from './skill-roots.ts';
import { createSkillsGroup, SKILLS_GROUP, skillNamedBy } from './skill-tools.ts';
import type { Skill } from './skill-types.ts';

export interface SkillSourceOptions {
  home: string;
  /** Contract: cheap, never throws; read at every (re)load. */
  roots: () => SkillRoot[];
  /** Contract: cheap, never throws; read at every script run. */
  context: () => SourceContext;
  settings: () => Settings;
  debounceMs?: number;
  log?: (message: string) => void;
}

export class SkillSource implements ToolGroupSource {
  readonly digests = new SkillDigests();
  readonly flagCache = new SkillFlagCache(this.digests);
  readonly approvals: SkillApprovals;
  readonly active = new ActiveSkills();
  readonly #options: SkillSourceOptions;
  readonly #changed: Emitter<ToolsChange>;
  readonly #parsed: SkillParseCache = new Map();
  #local: Skill[] = [];
  #remote = new Map<string, Skill[]>();
  #all: Skill[] = [];
  #diagnostics: Diagnostic[] = [];
  #groups: ToolGroup[] = [];
  /** The skills the group offers (enabled, with a folder), catalog order. */
  #offered: Skill[] = [];
  /** Conversations' narrowed groups by the ids they keep; emptied when the group is rebuilt. */
  #narrowed = new Map<string, ToolGroup | null>();
  #watchers: FSWatcher[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(options: SkillSourceOptions) {
    this.#options = options;
    this.approvals = new SkillApprovals(options.home, this.digests, options.log);
    this.#changed = new Emitter({ onListenerError: (error) => options.log?.(`skills.changed listener failed: ${(error as Error).message}`) });
  }

  /** What scripts and dependency installs of these skills run with (sandbox, limits, folders). */
  context(): SourceContext {
    return this.#options.context();
  }

  get home(): string {
    return this.#options.home;
  }

  /** Every skill found, enabled or not, qualified ids. */
  skills(): Skill[] {
    return this.#all;
  }

  /** Where skills are looked for now, in order (untrusted project folders included, marked). */
  roots(): SkillRoot[] {
    return this.#options.roots();
  }

  enabledSkills(): Skill[] {
    const settings = this.#options.settings();
    return this.#all.filter((s) => skillEnabled(s, settings));
  }

  /** A skill by id, or by bare name when only one has it. */
  find(name: string): Skill | { error: string } {
    const exact = this.#all.find((s) => s.id === name);
    if (exact) return exact;
    const named = this.#all.filter((s) => s.frontMatter.name === name);
    if (named.length === 1) return named[0]!;
    if (named.length > 1) return { error: `several skills are named "${name}": ${named.map((s) => s.id).join(', ')}` };
    return { error: `no skill named "${name}"${this.#all.length ? ` (skills: ${this.#all.map((s) => s.id).join(', ')})` : ''}` };
  }

  /** The ToolSession port applying accepted `allowed-tools` sets while their skill is active. */
  activeToolSets(): ReturnType<typeof activeSkillToolSets> {
    return activeSkillToolSets(this.active, this.#options.settings);
  }

  /** The ToolSession port narrowing the group per conversation (its Tools menu, its tool set). */
  scope(): SkillScopePort {
    return {
      group: SKILLS_GROUP,
      ids: () => this.#offered.map((s) => s.id),
      narrow: (group, hidden) => {
        // Not ours (another source's group of that name won the name) or stale (our change is on its
        // way): left as it is; calls naming a left-out skill are refused by the ToolSession anyway.
        if (group !== this.#groups[0]) return group;
        const kept = this.#offered.filter((s) => !hidden.has(s.id));
        if (kept.length === this.#offered.length) return group;
        const key = kept.map((s) => s.id).join('\n');
        let narrowed = this.#narrowed.get(key);
        if (narrowed === undefined) this.#narrowed.set(key, (narrowed = this.#group(kept)));
        return narrowed;
      },
      skillOf: skillNamedBy,
    };
  }

  flags(skill: Skill): string[] {
    if (!skill.dir) return [];
    try {
      return this.flagCache.flags(skill).map(flagText);
    } catch {
      return [];
    }
  }

  groups(): ToolGroup[] {
    return this.#groups;
  }

  diagnostics(): Diagnostic[] {
    return this.#diagnostics;
  }

  onChanged(listener: (change: ToolsChange) => void): Disposer {
    return this.#changed.event(listener);
  }

  /** Reads every root again and rebuilds the group (settings changed, files changed). */
  load(): void {
    const result = scanSkillRoots(this.#options.roots(), this.#parsed);
    this.#local = result.skills;
    this.#diagnostics = result.diagnostics;
    this.#rebuild();
  }

  async reload(): Promise<void> {
    this.load();
  }

  /** The skills an MCP server offers (labelled with it); an empty list removes them. */
  setRemote(server: string, skills: Skill[]): void {
    if (skills.length) this.#remote.set(server, skills);
    else this.#remote.delete(server);
    this.#rebuild();
  }

  /** Rebuilds the group from the current skills and settings (a switch or grant changed). */
  refresh(): void {
    this.#rebuild();
  }

  watch(): Disposer {
    this.#stopWatching();
    for (const root of this.#options.roots()) {
      if (root.untrusted) continue;
      try {
        const watcher = watch(root.root, { recursive: true }, () => this.#schedule());
        watcher.on('error', (error) => this.#options.log?.(`skill folder watch error: ${error.message}`));
        this.#watchers.push(watcher);
      } catch {
        // a root that does not exist yet: read again when the settings change
      }
    }
    return () => this.#stopWatching();
  }

  close(): void {
    this.#stopWatching();
    this.#changed.dispose();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.load();
    }, this.#options.debounceMs ?? 150);
  }

  #stopWatching(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const watcher of this.#watchers.splice(0)) watcher.close();
  }

  #rebuild(): void {
    const before = this.#groups;
    this.#all = qualifyClashes([...this.#local.map(unqualified), ...[...this.#remote.values()].flat().map(unqualified)]);
    const settings = this.#options.settings();
    this.#offered = this.#all.filter((s) => skillEnabled(s, settings) && s.dir !== '');
    this.#narrowed.clear();
    const group = this.#group(this.#offered);
    this.#groups = group ? [group] : [];
    const change = diffGroups(before, this.#groups, this.#diagnostics);
    if (before.length || this.#groups.length) this.#changed.fire(change);
  }

  #group(skills: Skill[]): ToolGroup | null {
    return createSkillsGroup({
      skills,
      context: this.#options.context,
      settings: this.#options.settings,
      approvals: this.approvals,
      active: this.active,
      flags: (skill) => this.flags(skill),
    });
  }
}

/** Back to the front-matter name before qualifying the whole set again. */
const unqualified = (s: Skill): Skill => (s.id === s.frontMatter.name ? s : { ...s, id: s.frontMatter.name });
