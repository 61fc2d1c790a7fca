// Parses SKILL.md without running anything: YAML front matter between `---` lines, then the body.
// Lenient on input (agentskills.io's rules become warnings, the skill still loads), strict only
// where nothing could be shown: no front matter or no name and no folder to name it after.
import { parseDocument } from 'yaml';
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { SkillFrontMatter } from './skill-types.ts';

export interface ParsedSkill {
  frontMatter: SkillFrontMatter;
  body: string;
  bodyLine: number;
}

const NAME_RULE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * `folderName`: the skill's folder, which `name` must match (a mismatch is a warning; the skill
 * loads under its front-matter name). Never throws; `skill` is null only when nothing can load.
 */
export function parseSkill(text: string, file: string, folderName: string): { skill: ParsedSkill | null; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const warn = (message: string, line?: number, hint?: string, severity: Diagnostic['severity'] = 'warning') =>
    diagnostics.push({ severity, file, ...(line ? { line } : {}), message, code: 'skill', ...(hint ? { hint } : {}) });
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = source.split('\n');
  if (lines[0]?.trim() !== '---') {
    warn('SKILL.md has no front matter (a `---` line, `name:` and `description:`, then `---`)', 1, 'Start the file with the front matter block.', 'error');
    return { skill: null, diagnostics };
  }
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end < 0) {
    warn('the front matter is not closed (no second `---` line)', 1, 'Add a `---` line after the front matter.', 'error');
    return { skill: null, diagnostics };
  }
  const raw = readFrontMatter(lines.slice(1, end).join('\n'), (message, line) => warn(message, line === undefined ? undefined : line + 1));
  const lineOf = (key: string) => {
    const i = lines.slice(1, end).findIndex((l) => l.startsWith(`${key}:`));
    return i < 0 ? 1 : i + 2;
  };
  let name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (!name) {
    warn(`no \`name\` in the front matter: loaded as "${folderName}" (its folder)`, 1, 'Add `name: ' + folderName + '`.');
    name = folderName;
  } else {
    if (name !== folderName) warn(`name "${name}" does not match its folder "${folderName}"`, lineOf('name'), `Rename the folder to "${name}" or set \`name: ${folderName}\` (agentskills.io requires them to match).`);
    if (name.length > 64 || !NAME_RULE.test(name)) warn(`name "${name}" is not a valid skill name (1–64 lowercase letters, digits and single hyphens)`, lineOf('name'));
  }
  let description = typeof raw.description === 'string' ? raw.description.trim() : '';
  if (!description) warn('no `description` in the front matter: the model cannot tell when to use this skill', lineOf('description'), 'Add a description saying what the skill does and when to use it.');
  if (description.length > 1024) {
    warn(`description is ${description.length} characters (at most 1024): shown cut`, lineOf('description'));
    description = description.slice(0, 1024);
  }
  const frontMatter: SkillFrontMatter = { name, description };
  if (typeof raw.license === 'string') frontMatter.license = raw.license;
  if (typeof raw.compatibility === 'string') {
    frontMatter.compatibility = raw.compatibility;
    if (raw.compatibility.length > 500) warn('compatibility is longer than 500 characters', lineOf('compatibility'));
  }
  if (raw.metadata !== undefined) {
    if (raw.metadata && typeof raw.metadata === 'object' && !Array.isArray(raw.metadata)) {
      frontMatter.metadata = Object.fromEntries(Object.entries(raw.metadata).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    } else warn('metadata should be a map of strings; ignored', lineOf('metadata'));
  }
  const allowed = raw['allowed-tools'];
  if (typeof allowed === 'string') frontMatter.allowedTools = allowed.split(/[\s,]+/).filter(Boolean);
  else if (Array.isArray(allowed)) frontMatter.allowedTools = allowed.map(String);
  const known = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
  for (const key of Object.keys(raw)) if (!known.has(key)) warn(`unknown front matter field "${key}" (kept out of what the model sees)`, lineOf(key));
  return { skill: { frontMatter, body: lines.slice(end + 1).join('\n').replace(/^\n+/, ''), bodyLine: end + 2 + leadingBlank(lines.slice(end + 1)) }, diagnostics };
}

/**
 * The common case without the YAML parser (it costs about a millisecond per skill, most of a
 * listing's time): every line a `key: plain text` pair whose value YAML would read as that same
 * string. Anything else (quotes, lists, maps, `: ` or ` #` in a value, numbers) → null.
 */
function plainFields(yamlText: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const line of yamlText.split('\n')) {
    if (line.trim() === '') continue;
    const m = /^([A-Za-z][\w-]*): (.+)$/.exec(line);
    if (!m) return null;
    const value = m[2]!.trim();
    if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) || /: | #|:$/.test(value) || /^(true|false|yes|no|on|off|null|~|[-+.\d][\d._eE+-]*)$/i.test(value)) return null;
    if (Object.hasOwn(out, m[1]!)) return null;
    out[m[1]!] = value;
  }
  return out;
}

function leadingBlank(lines: string[]): number {
  let n = 0;
  while (n < lines.length && lines[n]!.trim() === '') n++;
  return n;
}

/**
 * YAML as the format says; when it is not valid YAML (an unquoted `: ` in a description is
 * common in published skills), `key: value` lines are read as plain strings, with a warning.
 */
function readFrontMatter(yamlText: string, warn: (message: string, line?: number) => void): Record<string, unknown> {
  const simple = plainFields(yamlText);
  if (simple) return simple;
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length === 0) {
    const value = doc.toJS() as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    if (value === null || value === undefined) return {};
    warn('the front matter is not a map of fields');
    return {};
  }
  const first = doc.errors[0]!;
  const line = first.linePos?.[0]?.line;
  warn(`the front matter is not valid YAML (${first.code}): read as plain "key: value" lines`, line);
  const out: Record<string, unknown> = {};
  for (const l of yamlText.split('\n')) {
    const m = /^([A-Za-z][\w-]*):\s?(.*)$/.exec(l);
    if (m) out[m[1]!] = m[2]!.trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}
