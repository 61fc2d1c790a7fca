import { For, Show, createSignal } from 'solid-js';
import type { CreatedTool } from '../../../shared/api.ts';
import { NAME_RULES, NEW_TOOL_FORMAT_INFO, NEW_TOOL_FORMATS, newToolNameProblem, type NewToolFormat } from '../../../shared/new-tool-formats.ts';
import { newSkillNameProblem, SKILL_NAME_RULE, type SkillApiMethods } from '../../../shared/api-skills.ts';
import { useApp } from '../store/app-context.tsx';

/** "New tool" also makes an Agent Skill: a SKILL.md folder in TOOLDESK_HOME/skills (not a tool folder). */
const SKILL = 'skill' as const;
type Choice = NewToolFormat | typeof SKILL;
export type CreatedSkill = SkillApiMethods['createSkill']['response'];

/** Creates a tool of any format from its template (the same list and rules as `tooldesk tools new`), or a skill (`tooldesk skills new`). */
export function NewToolForm(props: { onCreated: (created: CreatedTool) => void; onCreatedSkill: (created: CreatedSkill) => void; onCancel: () => void }) {
  const app = useApp();
  const [format, setFormat] = createSignal<Choice>('three-layer');
  const [name, setName] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  /** Why the runtime refused the name ("already exists"), until the name or format changes. */
  const [refused, setRefused] = createSignal<string | null>(null);
  const problem = () => {
    const f = format();
    return f === SKILL ? newSkillNameProblem(name()) : newToolNameProblem(f, name());
  };
  const rule = () => {
    const f = format();
    return f === SKILL ? SKILL_NAME_RULE : NAME_RULES[NEW_TOOL_FORMAT_INFO[f].names].text;
  };
  const shown = () => (name() ? (problem() ?? refused()) : null);
  let nameInput: HTMLInputElement | undefined;

  const create = async (e: Event) => {
    e.preventDefault();
    if (problem()) return;
    setBusy(true);
    try {
      const f = format();
      if (f === SKILL) props.onCreatedSkill(await app.api.createSkill({ name: name() }));
      else props.onCreated(await app.api.createTool({ format: f, name: name() }));
    } catch (error) {
      // It is about the name (taken, or its folder exists): said next to it, where the fix is typed.
      setRefused(error instanceof Error ? error.message : String(error));
      nameInput?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card stack new-tool-form" onSubmit={create} data-testid="new-tool-form">
      <strong>New tool</strong>
      <label>
        Format
        <select
          value={format()}
          onChange={(e) => {
            setFormat(e.currentTarget.value as Choice);
            setRefused(null);
          }}
          aria-label="Format"
        >
          <For each={NEW_TOOL_FORMATS}>{(f) => <option value={f}>{NEW_TOOL_FORMAT_INFO[f].label}</option>}</For>
          <option value={SKILL}>Agent Skill (a SKILL.md folder with scripts/, in your skills folder)</option>
        </select>
      </label>
      <label>
        Name
        <input
          ref={nameInput}
          type="text"
          value={name()}
          placeholder="my_tool"
          aria-label="Tool name"
          aria-invalid={shown() !== null}
          aria-describedby="new-tool-name-rule"
          data-testid="new-tool-name"
          onInput={(e) => {
            setName(e.currentTarget.value);
            setRefused(null);
          }}
        />
      </label>
      {/* The rule for this format; once something is typed, what is wrong with it. */}
      <div id="new-tool-name-rule" class={`small ${shown() ? 'error-text' : 'muted'}`} role="status" data-testid="new-tool-name-rule">
        <Show when={shown()} fallback={`Name: ${rule()}.`}>
          {shown()}
        </Show>
      </div>
      <div class="row">
        <button type="submit" class="primary" disabled={problem() !== null || busy()} data-testid="create-tool">
          Create
        </button>
        <button type="button" onClick={() => props.onCancel()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
