import { For, Show, createSignal } from 'solid-js';
import type { CreatedTool } from '../../../shared/api.ts';
import { NAME_RULES, NEW_TOOL_FORMAT_INFO, NEW_TOOL_FORMATS, newToolNameProblem, type NewToolFormat } from '../../../shared/new-tool-formats.ts';
import { useApp } from '../store/app-context.tsx';

/** Creates a tool of any format from its template (the same list and rules as `tooldesk tools new`). */
export function NewToolForm(props: { onCreated: (created: CreatedTool) => void; onCancel: () => void }) {
  const app = useApp();
  const [format, setFormat] = createSignal<NewToolFormat>('three-layer');
  const [name, setName] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  /** Why the runtime refused the name ("already exists"), until the name or format changes. */
  const [refused, setRefused] = createSignal<string | null>(null);
  const problem = () => newToolNameProblem(format(), name());
  const shown = () => (name() ? (problem() ?? refused()) : null);
  let nameInput: HTMLInputElement | undefined;

  const create = async (e: Event) => {
    e.preventDefault();
    if (problem()) return;
    setBusy(true);
    try {
      props.onCreated(await app.api.createTool({ format: format(), name: name() }));
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
            setFormat(e.currentTarget.value as NewToolFormat);
            setRefused(null);
          }}
          aria-label="Format"
        >
          <For each={NEW_TOOL_FORMATS}>{(f) => <option value={f}>{NEW_TOOL_FORMAT_INFO[f].label}</option>}</For>
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
        <Show when={shown()} fallback={`Name: ${NAME_RULES[NEW_TOOL_FORMAT_INFO[format()].names].text}.`}>
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
