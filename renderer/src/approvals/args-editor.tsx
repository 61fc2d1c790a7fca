import { Show, createSignal, onCleanup } from 'solid-js';
import type { JsonSchema } from '../../../shared/tools.ts';
import { SchemaForm } from '../tools/schema-form.tsx';

export type EditedArgs = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/**
 * "Edit arguments" on an approval card: the tool's schema form (the Run form's), or the raw JSON,
 * starting from the call's arguments. Every edit is checked by `check` (the runtime's own
 * validator, so the messages are the model's) and reported through `onChange`.
 */
export function ArgsEditor(props: {
  schema: JsonSchema | undefined;
  args: Record<string, unknown>;
  check: (args: Record<string, unknown>) => Promise<{ ok: boolean; message?: string }>;
  onChange: (edited: EditedArgs) => void;
}) {
  const [raw, setRaw] = createSignal(props.schema === undefined);
  const [json, setJson] = createSignal(JSON.stringify(props.args, null, 2));
  const [current, setCurrent] = createSignal<Record<string, unknown>>(props.args);
  const [problem, setProblem] = createSignal<string | null>(null);
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));

  const validate = (args: Record<string, unknown>) => {
    setCurrent(args);
    const mine = ++generation;
    clearTimeout(timer);
    // Not on every keystroke: the check goes to the runtime.
    timer = setTimeout(() => {
      void props.check(args).then(
        (answer) => {
          if (mine !== generation) return;
          setProblem(answer.ok ? null : (answer.message ?? 'Invalid arguments.'));
          props.onChange(answer.ok ? { ok: true, args } : { ok: false, message: answer.message ?? 'Invalid arguments.' });
        },
        (error: unknown) => {
          if (mine !== generation) return;
          setProblem(`Could not check the arguments: ${(error as Error).message}`);
        },
      );
    }, 150);
  };
  const fail = (message: string) => {
    ++generation;
    clearTimeout(timer);
    setProblem(message);
    props.onChange({ ok: false, message });
  };
  const onJson = (text: string) => {
    setJson(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return fail(`Not valid JSON: ${(error as Error).message}`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return fail('The arguments must be one JSON object, e.g. {"key": "value"}.');
    validate(value as Record<string, unknown>);
  };
  const switchMode = () => {
    if (!raw()) setJson(JSON.stringify(current(), null, 2));
    setRaw(!raw());
  };
  // Start with a check, so a card opened on invalid arguments says so at once.
  validate(props.args);

  return (
    <div class="args-editor stack" data-args-editor data-testid="args-editor">
      <div class="row">
        <span class="small muted grow">Edit the arguments, then approve: the tool runs with yours and the model is told.</span>
        <Show when={props.schema !== undefined}>
          <button type="button" class="link small" aria-pressed={raw()} onClick={switchMode}>
            {raw() ? 'Form' : 'Raw JSON'}
          </button>
        </Show>
      </div>
      <Show
        when={raw()}
        fallback={
          <SchemaForm
            schema={props.schema!}
            initialArgs={current()}
            hideSubmit
            onSubmit={() => {}}
            onChange={(parsed) => {
              const errors = Object.entries(parsed.errors);
              if (errors.length > 0) fail(errors.map(([k, v]) => `${k}: ${v}`).join(' '));
              else validate(parsed.args);
            }}
          />
        }
      >
        <textarea class="mono" rows={Math.min(16, json().split('\n').length + 1)} aria-label="Arguments as JSON" value={json()} onInput={(e) => onJson(e.currentTarget.value)} />
      </Show>
      <div role="status" aria-live="polite" data-testid="args-validation" class={problem() ? 'small error-text' : 'small ok-text'}>
        {problem() ?? 'Valid.'}
      </div>
    </div>
  );
}
