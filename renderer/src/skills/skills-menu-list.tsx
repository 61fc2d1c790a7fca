// The chat's Tools menu lists the skills beside the groups (issue #34). A skill's switch here is
// this chat's own (ChatSettings.skillsOff, saved with the chat): unticked, the skill leaves this
// chat's catalog and the model cannot use it here; other chats keep it. Settings → Skills stays
// the switch for every chat: a skill off there shows here greyed, with the way to it. The
// search filters skills as it filters tools.
import { For, Show, createEffect, createSignal, on } from 'solid-js';
import type { SkillView } from '../../../shared/api-skills.ts';
import { useApp } from '../store/app-context.tsx';

export function SkillsMenuList(props: {
  query: string;
  /** Skills (ids) switched off for this chat. */
  off: readonly string[];
  /** Contract: saves the chat's switched-off skills (sorted, no duplicates). */
  onOffChange: (off: string[]) => void;
  onOpenSettings?: (section?: string) => void;
}) {
  const app = useApp();
  const [skills, setSkills] = createSignal<SkillView[]>([]);
  const load = async () => {
    const view = await app.guard(() => app.api.listSkills());
    if (view) setSkills(view.skills.filter((s) => s.dir));
  };
  createEffect(on([() => app.state.settings, () => app.state.tools], () => void load()));
  const q = () => props.query.trim().toLowerCase();
  const shown = () => skills().filter((s) => !q() || s.id.toLowerCase().includes(q()) || s.description.toLowerCase().includes(q()));
  const onHere = (skill: SkillView) => skill.enabled && !props.off.includes(skill.id);
  const set = (skill: SkillView, on: boolean) => {
    const rest = props.off.filter((id) => id !== skill.id);
    props.onOffChange((on ? rest : [...rest, skill.id]).sort());
  };
  return (
    <Show when={shown().length}>
      <fieldset class="tool-selection-group" data-testid="tool-selection-skills">
        <legend>
          <span class="row">
            <strong>Skills</strong>
            <span class="muted small">
              {shown().filter(onHere).length}/{shown().length} on for this chat · for every chat:{' '}
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
                <input type="checkbox" aria-label={`Skill ${skill.id}`} checked={onHere(skill)} disabled={!skill.enabled} onChange={(e) => set(skill, e.currentTarget.checked)} />
                <code>{skill.id}</code>
                <span class="muted small tool-selection-desc" title={skill.description}>
                  {skill.enabled ? '' : 'off in Settings → Skills · '}
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
