// An identifier (variable, tool) that may wrap only between its words: after `_`, `.`, `/`, `-`,
// `:` and before a capital that follows a small letter, never inside a word. A word longer than the
// line is ellipsized by the caller's CSS, with the whole name in its title.
import { For } from 'solid-js';

/** The name cut into pieces that end where a line may break. */
export function nameParts(name: string): string[] {
  return name.split(/(?<=[_./:-])|(?<=[a-z])(?=[A-Z])/).filter(Boolean);
}

export function BreakableName(props: { name: string }) {
  return <For each={nameParts(props.name)}>{(part, i) => (i() === 0 ? part : [<wbr />, part])}</For>;
}
