// Which `$VAR_REF`s each top-level argument used, and what each expanded to in characters: the
// approval card shows the variable's name next to the resolved value, and Inspect lists them.
import type { VarRefUse } from '../../../../shared/tool-inspection.ts';
import { resolveVarRefs, type VarRefSource } from './resolve-var-refs.ts';

const REF = /\$VAR_REF\{\{([^{}]*)\}\}/g;

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, out);
  return out;
}

/** Never throws: a reference that does not resolve gets `chars: -1`. */
export function varRefUses(rawArgs: Record<string, unknown>, source: VarRefSource): VarRefUse[] {
  const uses: VarRefUse[] = [];
  for (const [arg, value] of Object.entries(rawArgs)) {
    const seen = new Set<string>();
    for (const text of strings(value)) {
      for (const match of text.matchAll(REF)) {
        if (seen.has(match[0])) continue;
        seen.add(match[0]);
        const resolved = resolveVarRefs(match[0], source);
        const inner = match[1]!.trim();
        const name = resolved.ok && resolved.refs[0] !== undefined ? resolved.refs[0] : inner;
        uses.push({ arg, name, chars: resolved.ok ? resolved.value.length : -1 });
      }
    }
  }
  return uses;
}
