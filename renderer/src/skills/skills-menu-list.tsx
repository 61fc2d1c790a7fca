// The chat's Tools menu lists the skills beside the groups (issue #34). A skill's switch is the
// one of Settings → Skills (every chat: the catalog the model sees is one per app, not per chat),
// so the menu says so; its search filters skills as it filters tools.
import { For, Show, createEffect, createSignal, on } from 'solid-js';
import type { SkillView } from '../../../shared/api-skills.ts';
import { useApp } from '../store/app-context.tsx';

export function SkillsMenuList(props: { query: string; onOpenSettings?: (section?: string) => void }) {
  const app = useApp();
  const [skills, setSkills] = createSignal<SkillView[]>([]);
  const load = async () => {
    const view = await app.guard(() => app.api.listSkills());
    if (view) setSkills(view.skills.filter((s) => s.dir));
  };
  createEffect(on([() => app.state.settings, () => app.state.tools], () => void load()));
  const q = () => props.query.trim().toLowerCase();
  const shown = () => skills().filter((s) => !q() || s.id.toLowerCase().includes(q()) || s.description.toLowerCase().includes(q()));
  const set = async (skill: SkillView, enabled: boolean) => {
    const view = await app.guard(() => app.api.setSkillEnabled({ id: skill.id, enabled }));
    if (view) setSkills(view.skills.filter((s) => s.dir));
  };
  return (
    <Show when={shown().length}>
      <fieldset class="tool-selection-group" data-testid="tool-selection-skills">
        <legend>
          <span class="row">
            <strong>Skills</strong>
            <span class="muted small">
              {shown().filter((s) => s.enabled).length}/{shown().length} on for every chat ·{' '}
              <button type="button" class="link small" onClick={() => props.onOpenSettings?.('skills')}>
                Settings → Skills
              </button>
            </span>
          </span>
        </legend>
        <For each={shown()}>
          {(skill) => (
            <div class="row tool-selection-tool" data-testid="tool-selection-skill" data-skill={skill.id}>
              <label class="row grow">
                <input type="checkbox" aria-label={`Skill ${skill.id}`} checked={skill.enabled} onChange={(e) => void set(skill, e.currentTarget.checked)} />
                <code>{skill.id}</code>
                <span class="muted small tool-selection-desc" title={skill.description}>
                  {skill.origin.label} · {skill.description}
                </span>
              </label>
            </div>
          )}
        </For>
      </fieldset>
    </Show>
  );
}
