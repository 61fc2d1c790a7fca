// `$VAR_REF{{name}}` in the user's own message: expanded before the model sees it (the chat shows
// the typed text with a chip per variable); an unknown name stops the message before it is sent.
import { resolveVarRefs, type VarRefSource } from '../../tools/variables/resolve-var-refs.ts';
import { varRefUses } from '../../tools/variables/var-ref-uses.ts';

export type ExpandedUserText =
  | { ok: true; text: string; refs: { name: string; chars: number }[] }
  | { ok: false; error: string };

export function expandUserVarRefs(text: string, variables: VarRefSource): ExpandedUserText {
  if (!text.includes('$VAR_REF{{')) return { ok: true, text, refs: [] };
  const resolved = resolveVarRefs(text, variables);
  if (!resolved.ok) return { ok: false, error: `The message was not sent: ${resolved.error}` };
  const refs = varRefUses({ text }, variables).map(({ name, chars }) => ({ name, chars }));
  return { ok: true, text: resolved.value, refs };
}
