// A path the model names inside a skill: relative, no `..`, and (after symlinks) still inside
// the skill's folder. Everything else is refused with a message the model can act on.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';

export type InSkill = { ok: true; path: string } | { ok: false; message: string };

export function resolveInSkill(dir: string, path: unknown, what = 'path'): InSkill {
  if (typeof path !== 'string' || path.trim() === '') return { ok: false, message: `"${what}" must be a file of the skill, relative to its folder (e.g. "scripts/run.py").` };
  const rel = path.trim().replace(/\\/g, '/');
  if (isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) return { ok: false, message: `"${path}" is an absolute path: only files inside the skill's folder can be used, named relative to it.` };
  if (rel.split('/').includes('..')) return { ok: false, message: `"${path}" goes out of the skill's folder (".."): only files inside it can be used.` };
  let real: string;
  let root: string;
  try {
    root = realpathSync(dir);
    real = realpathSync(join(dir, rel));
  } catch {
    return { ok: false, message: `The skill has no file "${rel}".` };
  }
  if (real !== root && !real.startsWith(root + sep)) return { ok: false, message: `"${rel}" is a link that leads out of the skill's folder: refused.` };
  try {
    if (!statSync(real).isFile()) return { ok: false, message: `"${rel}" is not a file of the skill.` };
  } catch {
    return { ok: false, message: `The skill has no file "${rel}".` };
  }
  return { ok: true, path: real };
}
