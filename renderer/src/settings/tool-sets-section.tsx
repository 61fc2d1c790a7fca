// Settings → Tool sets: named choices of groups, tools and skills (with a default permission level) that a
// chat picks in its header or with `/toolset NAME`, and `mcp serve --toolset NAME` serves. Edited
// as rows and saved at once; a set's own rules (made with the CLI or in settings.json) are kept.
import { For, Show, createEffect, createSignal, on } from 'solid-js';
import { PERMISSION_LEVEL_LABELS, PERMISSION_LEVELS, type PermissionLevel, type ToolSet } from '../../../shared/permissions.ts';
import { useApp } from '../store/app-context.tsx';
import { useDraftRows } from './draft-rows.ts';
import { DraftSaveRow } from './draft-save-row.tsx';
import { useSettings } from './use-settings.ts';

interface Row {
  name: string;
  groups: string;
  tools: string;
  /** Skill ids: chats using the set offer only these skills (empty: the set names no skill). */
  skills?: string;
  level: PermissionLevel | '';
  /** Kept as they are: the form does not edit a set's own rules. */
  rules?: ToolSet['rules'];
}

const list = (text: string): string[] => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];

const toRow = (set: ToolSet): Row => ({
  name: set.name,
  groups: (set.groups ?? []).join(', '),
  tools: (set.tools ?? []).join(', '),
  skills: (set.skills ?? []).join(', '),
  level: set.level ?? '',
  ...(set.rules?.length ? { rules: set.rules } : {}),
});

/** Rows back to tool sets, or the first problem naming the set. */
export function rowsToToolSets(rows: Row[]): { sets: ToolSet[] } | { error: string } {
  const sets: ToolSet[] = [];
  const seen = new Set<string>();
  for (const [i, row] of rows.entries()) {
    const name = row.name.trim();
    const which = name ? `Tool set "${name}"` : `Tool set ${i + 1}`;
    if (!name) return { error: `${which}: give it a name.` };
    if (/\s/.test(name)) return { error: `${which}: a name has no spaces (/toolset NAME reads one word).` };
    if (seen.has(name)) return { error: `${which}: another set has this name.` };
    seen.add(name);
    const groups = list(row.groups);
    const tools = list(row.tools);
    const skills = list(row.skills ?? '');
    if (groups.length + tools.length + skills.length === 0) return { error: `${which}: name at least one group, tool or skill.` };
    sets.push({ name, ...(groups.length ? { groups } : {}), ...(tools.length ? { tools } : {}), ...(skills.length ? { skills } : {}), ...(row.rules ? { rules: row.rules } : {}), ...(row.level ? { level: row.level } : {}) });
  }
  return { sets };
}

/**
 * The skills a row names that are not loaded (none when the list is not known yet): chats using
 * the set still get the rest, as `chat --toolset` warns; the form says so before it is saved.
 */
export function skillsNotLoaded(skills: string, loaded: ReadonlySet<string> | null): string[] {
  return loaded ? list(skills).filter((id) => !loaded.has(id)) : [];
}

export function ToolSetsSection() {
  const app = useApp();
  const { settings, save } = useSettings();
  const { rows, dirty, problem, setProblem, change, update, markSaved } = useDraftRows(() => settings()?.toolSets ?? [], toRow);
  const saveSets = async () => {
    const parsed = rowsToToolSets(rows());
    if ('error' in parsed) return setProblem(parsed.error);
    if (await save({ toolSets: parsed.sets })) markSaved();
  };
  const groupNames = () => app.state.tools.groups.map((g) => g.name);
  // The skills found (enabled or not), re-read when the tools or the settings change.
  const [skillIds, setSkillIds] = createSignal<ReadonlySet<string> | null>(null);
  createEffect(
    on([() => app.state.settings, () => app.state.tools], async () => {
      const view = await app.guard(() => app.api.listSkills());
      if (view) setSkillIds(new Set(view.skills.map((skill) => skill.id)));
    }),
  );

  return (
    <section class="settings-section" aria-labelledby="tool-sets-title" data-testid="tool-sets-section">
      <h3 id="tool-sets-title">Tool sets</h3>
      <p class="small muted">
        A named choice of groups, tools and skills (a set naming skills offers only those), with the permission level of chats that use it. A chat picks one in its header or with <code>/toolset NAME</code>;{' '}
        <code>tooldesk mcp serve --toolset NAME</code> serves exactly that set. Names are separated by commas.
      </p>
      <datalist id="tool-set-groups">
        <For each={groupNames()}>{(name) => <option value={name} />}</For>
      </datalist>
      <datalist id="tool-set-skills">
        <For each={[...(skillIds() ?? [])]}>{(id) => <option value={id} />}</For>
      </datalist>
      <For each={rows()} fallback={<p class="small muted">No tool sets yet.</p>}>
        {(row, i) => (
          <div class="row wrap rule-row" data-testid="tool-set-row">
            <input aria-label={`Tool set ${i() + 1} name`} placeholder="name" value={row.name} onInput={(e) => update(i(), { name: e.currentTarget.value })} />
            <input
              class="grow"
              aria-label={`Tool set ${i() + 1} groups`}
              placeholder="groups: files, weather"
              list="tool-set-groups"
              value={row.groups}
              onInput={(e) => update(i(), { groups: e.currentTarget.value })}
            />
            <input class="grow" aria-label={`Tool set ${i() + 1} tools`} placeholder="tools: fetch_url" value={row.tools} onInput={(e) => update(i(), { tools: e.currentTarget.value })} />
            <input aria-label={`Tool set ${i() + 1} skills`} placeholder="skills: pdf" list="tool-set-skills" value={row.skills ?? ''} onInput={(e) => update(i(), { skills: e.currentTarget.value })} />
            <select aria-label={`Tool set ${i() + 1} level`} value={row.level} onChange={(e) => update(i(), { level: e.currentTarget.value as Row['level'] })}>
              <option value="">Level: chat's default</option>
              <For each={PERMISSION_LEVELS}>{(level) => <option value={level}>{PERMISSION_LEVEL_LABELS[level]}</option>}</For>
            </select>
            <Show when={row.rules?.length}>
              <span class="small muted">{row.rules!.length} own rule{row.rules!.length === 1 ? '' : 's'}</span>
            </Show>
            <button type="button" class="small danger" aria-label={`Remove tool set ${i() + 1}`} onClick={() => change(rows().filter((_, j) => j !== i()))}>
              ✕
            </button>
            <Show when={skillsNotLoaded(row.skills ?? '', skillIds()).length}>
              <p class="small warn-text row-note" role="status" data-testid="tool-set-missing-skills">
                No skill {skillsNotLoaded(row.skills ?? '', skillIds()).join(', ')} is loaded: chats using this set get the rest without it. Settings → Skills lists the skills found.
              </p>
            </Show>
          </div>
        )}
      </For>
      <DraftSaveRow label="Save tool sets" disabled={!dirty()} onSave={() => void saveSets()} problem={problem()}>
        <button type="button" onClick={() => change([...rows(), { name: '', groups: '', tools: '', skills: '', level: '' }])}>
          + Add tool set
        </button>
      </DraftSaveRow>
    </section>
  );
}
