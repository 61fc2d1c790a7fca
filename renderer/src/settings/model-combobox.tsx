// The provider form's one "Model" control: type any model name, or pick one the server listed
// (after "Load models" or "Test") from the list under it. Arrow keys move, Enter picks, Esc closes
// the list. One control for one value: no separate select beside the field.
import { For, Show, createSignal, createUniqueId } from 'solid-js';

/** What the form can do with the field: open its list with the focus in it (after "Load models"). */
export interface ModelComboboxHandle {
  openList(): void;
}

export function ModelCombobox(props: { value: string; models: string[]; onChange: (model: string) => void; handle?: (handle: ModelComboboxHandle) => void }) {
  const id = createUniqueId();
  const [open, setOpen] = createSignal(false);
  // Until the user types, the whole list shows (the current value would otherwise hide the rest).
  const [typed, setTyped] = createSignal(false);
  const [cursor, setCursor] = createSignal(-1);
  const shown = () => {
    const q = props.value.trim().toLowerCase();
    return typed() && q ? props.models.filter((m) => m.toLowerCase().includes(q)) : props.models;
  };
  const expanded = () => open() && props.models.length > 0;
  const show = () => {
    setTyped(false);
    setCursor(props.models.indexOf(props.value));
    setOpen(true);
  };
  let input!: HTMLInputElement;
  props.handle?.({
    openList() {
      input.focus();
      show();
    },
  });
  const pick = (model: string) => {
    props.onChange(model);
    setOpen(false);
  };
  const optionId = (index: number) => `${id}-option-${index}`;

  return (
    <div class="model-combobox grow">
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-label="Model"
        aria-autocomplete="list"
        aria-expanded={expanded()}
        aria-controls={`${id}-list`}
        aria-activedescendant={expanded() && cursor() >= 0 ? optionId(cursor()) : undefined}
        autocomplete="off"
        value={props.value}
        placeholder={props.models.length ? 'Type or pick a model' : 'e.g. gpt-4.1-mini'}
        onInput={(e) => {
          props.onChange(e.currentTarget.value);
          setTyped(true);
          setCursor(-1);
          setOpen(true);
        }}
        onClick={() => (open() ? setOpen(false) : show())}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          const count = shown().length;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            if (!count) return;
            e.preventDefault();
            if (!open()) return show();
            const step = e.key === 'ArrowDown' ? 1 : -1;
            setCursor((i) => (i < 0 ? (step > 0 ? 0 : count - 1) : (i + step + count) % count));
          } else if (e.key === 'Enter' && expanded() && cursor() >= 0 && shown()[cursor()]) {
            e.preventDefault();
            pick(shown()[cursor()]!);
          } else if (e.key === 'Escape' && expanded()) {
            // Closes the list only; the Settings panel stays open.
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
        data-testid="model-input"
      />
      <Show when={expanded()}>
        <ul class="model-options" role="listbox" id={`${id}-list`} aria-label="Models this server offers">
          <For each={shown()} fallback={<li class="muted small">No listed model matches; the name as typed is used.</li>}>
            {(model, index) => (
              <li
                id={optionId(index())}
                role="option"
                aria-selected={index() === cursor()}
                classList={{ current: model === props.value }}
                // mousedown, not click: the field's blur would close the list before a click lands.
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(model);
                }}
                data-testid="model-option"
              >
                {model}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={props.models.length > 0 && props.value.trim() !== '' && !props.models.includes(props.value)}>
        <div class="muted small" data-testid="model-not-listed">
          "{props.value}" is not among the models this server listed; it is used as typed.
        </div>
      </Show>
    </div>
  );
}
