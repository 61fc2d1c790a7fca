import { For, Show, createSignal, onMount } from 'solid-js';
import type { GroupValvesView, ValveKind, ValveView } from '../../../shared/tool-valves.ts';
import { useApp } from '../store/app-context.tsx';

/** Does this group come from an Open WebUI Tools file (and so have Valves to show)? */
export const hasValves = (group: { tools: { format: string }[] }): boolean => group.tools.some((t) => t.format === 'open-webui');

/** Settings → Tool groups → Valves: an Open WebUI toolkit's Valves and UserValves as a form. */
export function ValvesForm(props: { group: string }) {
  const app = useApp();
  const [view, setView] = createSignal<GroupValvesView | null>(null);
  onMount(() => void app.guard(() => app.api.getToolValves({ group: props.group })).then((v) => v && setView(v)));
  const save = async (kind: ValveKind, values: Record<string, string>) => {
    const next = await app.guard(() => app.api.setToolValves({ group: props.group, kind, values }));
    if (next) setView(next);
    return !!next;
  };
  return (
    <div class="valves stack" data-testid={`valves-${props.group}`}>
      <Show when={view()} fallback={<p class="muted small">Loading valves…</p>}>
        {(v) => (
          <>
            <Show when={v().valves.length + v().userValves.length === 0}>
              <p class="muted small">This toolkit has no Valves.</p>
            </Show>
            <Show when={v().valves.length}>
              <ValveFields title="Valves" kind="valves" fields={v().valves} onSave={save} />
            </Show>
            <Show when={v().userValves.length}>
              <ValveFields title="Your UserValves" kind="userValves" fields={v().userValves} onSave={save} />
            </Show>
            <p class="muted small">Kept in {v().store}; secret fields in the keychain. Used from the next call.</p>
          </>
        )}
      </Show>
    </div>
  );
}

const shown = (field: ValveView): string => {
  const value = field.value !== undefined ? field.value : field.default;
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

function ValveFields(props: { title: string; kind: ValveKind; fields: ValveView[]; onSave: (kind: ValveKind, values: Record<string, string>) => Promise<boolean> }) {
  const [edits, setEdits] = createSignal<Record<string, string>>({});
  const edit = (name: string, text: string) => setEdits({ ...edits(), [name]: text });
  const submit = async (event: Event) => {
    event.preventDefault();
    if (Object.keys(edits()).length && (await props.onSave(props.kind, edits()))) setEdits({});
  };
  return (
    <form class="stack" onSubmit={(e) => void submit(e)} aria-label={`${props.title} of the group`}>
      <strong class="small">{props.title}</strong>
      <For each={props.fields}>
        {(field) => {
          const id = `valve-${props.kind}-${field.name}`;
          const enumValues = Array.isArray(field.schema.enum) ? (field.schema.enum as unknown[]) : null;
          const current = () => edits()[field.name] ?? (field.secret ? '' : shown(field));
          return (
            <div class="valve-row">
              <label for={id} class="small">
                <code>{field.name}</code>
                <Show when={field.description}>
                  <span class="muted"> — {field.description}</span>
                </Show>
              </label>
              <Show
                when={field.schema.type === 'boolean'}
                fallback={
                  <Show
                    when={enumValues}
                    fallback={
                      <input
                        id={id}
                        type={field.secret ? 'password' : 'text'}
                        autocomplete="off"
                        placeholder={field.secret ? (field.secretSet ? 'set (type to replace)' : 'not set') : `default: ${JSON.stringify(field.default)}`}
                        value={current()}
                        onInput={(e) => edit(field.name, e.currentTarget.value)}
                      />
                    }
                  >
                    {(values) => (
                      <select id={id} value={current()} onChange={(e) => edit(field.name, e.currentTarget.value)}>
                        <For each={values()}>{(value) => <option value={String(value)}>{String(value)}</option>}</For>
                      </select>
                    )}
                  </Show>
                }
              >
                <input id={id} type="checkbox" checked={current() === 'true'} onChange={(e) => edit(field.name, e.currentTarget.checked ? 'true' : 'false')} />
              </Show>
              <button type="button" class="link small" title="Back to the default written in the file" onClick={() => edit(field.name, '')}>
                Reset
              </button>
            </div>
          );
        }}
      </For>
      <div class="row">
        <button type="submit" disabled={Object.keys(edits()).length === 0}>
          Save {props.title}
        </button>
      </div>
    </form>
  );
}
