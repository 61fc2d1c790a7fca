import { For, Match, Show, Switch, createMemo, createSignal } from 'solid-js';
import { createStore } from 'solid-js/store';
import type { JsonSchema } from '../../../shared/tools.ts';
import { extraArgs, fieldsOf, initialValues, parseValues, valuesFromArgs, type Field, type ParsedArgs } from './schema-fields.ts';

/**
 * A form generated from a tool's JSON Schema; submits parsed, validated arguments. With
 * `initialArgs` it starts from those (arguments it has no field for are kept); `onChange` gets
 * every edit parsed, with the form's own errors (the approval card validates live with it).
 */
export function SchemaForm(props: {
  schema: JsonSchema;
  submitLabel?: string;
  busy?: boolean;
  onSubmit: (args: Record<string, unknown>) => void;
  initialArgs?: Record<string, unknown>;
  onChange?: (parsed: ParsedArgs) => void;
  /** No submit button (the caller has its own). */
  hideSubmit?: boolean;
}) {
  const fields = createMemo(() => fieldsOf(props.schema));
  const extra = props.initialArgs ? extraArgs(fields(), props.initialArgs) : {};
  const [values, setValues] = createStore(props.initialArgs ? valuesFromArgs(fields(), props.initialArgs) : initialValues(fields()));
  const [errors, setErrors] = createSignal<Record<string, string>>({});
  const parse = (): ParsedArgs => {
    const parsed = parseValues(fields(), { ...values });
    return { args: { ...extra, ...parsed.args }, errors: parsed.errors };
  };
  const change = (name: string, value: string | boolean) => {
    setValues(name, value);
    if (!props.onChange) return;
    const parsed = parse();
    setErrors(parsed.errors);
    props.onChange(parsed);
  };

  const submit = (e: Event) => {
    e.preventDefault();
    const parsed = parse();
    setErrors(parsed.errors);
    if (Object.keys(parsed.errors).length === 0) props.onSubmit(parsed.args);
  };

  return (
    <form class="schema-form stack" onSubmit={submit} data-testid="schema-form" novalidate>
      <Show when={fields().length === 0}>
        <p class="muted small">This tool takes no arguments.</p>
      </Show>
      <For each={fields()}>{(field) => <FieldInput field={field} value={values[field.name]} error={errors()[field.name]} onChange={(v) => change(field.name, v)} />}</For>
      <Show when={!props.hideSubmit}>
        <div class="row">
          <button type="submit" class="primary" disabled={props.busy} data-testid="run-tool">
            {props.busy ? 'Running…' : (props.submitLabel ?? 'Run')}
          </button>
        </div>
      </Show>
    </form>
  );
}

function FieldInput(props: { field: Field; value: string | boolean | undefined; error?: string; onChange: (value: string | boolean) => void }) {
  const id = `field-${props.field.name}-${Math.random().toString(36).slice(2, 8)}`;
  const label = () => (
    <>
      <span class="field-name">{props.field.name}</span>
      <Show when={props.field.required}>
        <span class="error-text" aria-hidden="true">
          {' '}
          *
        </span>
      </Show>
      <span class="muted small"> {props.field.kind === 'json' ? `(${props.field.jsonType === 'any' ? 'JSON' : `JSON ${props.field.jsonType}`})` : ''}</span>
    </>
  );
  const text = () => (typeof props.value === 'string' ? props.value : '');
  return (
    <div class={`field ${props.error ? 'invalid' : ''}`}>
      <Switch>
        <Match when={props.field.kind === 'boolean'}>
          <label class="row">
            <input type="checkbox" name={props.field.name} checked={props.value === true} onChange={(e) => props.onChange(e.currentTarget.checked)} />
            {label()}
          </label>
        </Match>
        <Match when={true}>
          <label for={id}>{label()}</label>
          <Switch>
            <Match when={props.field.kind === 'enum'}>
              <select id={id} name={props.field.name} value={text()} onChange={(e) => props.onChange(e.currentTarget.value)}>
                <Show when={!props.field.required}>
                  <option value="">—</option>
                </Show>
                <For each={props.field.enumValues}>{(v) => <option value={JSON.stringify(v)}>{typeof v === 'string' ? v : JSON.stringify(v)}</option>}</For>
              </select>
            </Match>
            <Match when={props.field.kind === 'json' || props.field.kind === 'text'}>
              <textarea
                id={id}
                name={props.field.name}
                class="mono"
                rows={props.field.kind === 'json' ? 3 : 4}
                value={text()}
                aria-invalid={!!props.error}
                onInput={(e) => props.onChange(e.currentTarget.value)}
              />
            </Match>
            <Match when={true}>
              <input
                id={id}
                name={props.field.name}
                type={props.field.kind === 'string' ? 'text' : 'number'}
                step={props.field.kind === 'integer' ? '1' : 'any'}
                value={text()}
                aria-invalid={!!props.error}
                onInput={(e) => props.onChange(e.currentTarget.value)}
              />
            </Match>
          </Switch>
        </Match>
      </Switch>
      <Show when={props.field.description}>
        <div class="muted small">{props.field.description}</div>
      </Show>
      <Show when={props.error}>
        <div class="error-text small" role="alert">
          {props.error}
        </div>
      </Show>
    </div>
  );
}
