// The catalog each request carries (progressive disclosure, step one): the enabled skills' names
// and descriptions within a character budget, like FindTools' budget for definitions. When all
// do not fit, descriptions are cut evenly; when not even the names fit, the rest are counted and
// the activate_skill tool's list names them all.
import type { Skill } from './skill-types.ts';

export const SKILL_CATALOG_BUDGET_CHARS = 8000;

const HEADER = [
  '## Skills',
  'Skills are folders of instructions and scripts for specific tasks. When a task matches a skill below,',
  'call activate_skill {"name": …} first and follow what it returns; read its other files with read_skill_file.',
  "Run a skill's scripts only with run_skill_script (run_skill_python for short Python it asks you to write):",
  'each run is sandboxed and approved by the user.',
].join('\n');

export function skillCatalog(skills: readonly Skill[], budgetChars = SKILL_CATALOG_BUDGET_CHARS): string {
  if (skills.length === 0) return '';
  const line = (s: Skill, description: string) => `- ${s.id}: ${description}`;
  const full = [HEADER, ...skills.map((s) => line(s, oneLine(s.frontMatter.description)))].join('\n');
  if (full.length <= budgetChars) return full;
  const namesOnly = skills.reduce((n, s) => n + line(s, '').length + 1, HEADER.length);
  if (namesOnly <= budgetChars) {
    // Spread what is left evenly; short descriptions give their share to the long ones.
    let left = budgetChars - namesOnly;
    const descriptions = skills.map((s) => oneLine(s.frontMatter.description));
    const order = descriptions.map((d, i) => ({ d, i })).sort((a, b) => a.d.length - b.d.length);
    const shown: string[] = new Array(skills.length);
    order.forEach(({ d, i }, k) => {
      const share = Math.floor(left / (order.length - k));
      const cut = d.length <= share ? d : share > 1 ? `${d.slice(0, share - 1)}…` : '';
      shown[i] = cut;
      left -= cut.length;
    });
    return [HEADER, ...skills.map((s, i) => line(s, shown[i]!))].join('\n');
  }
  const lines = [HEADER];
  let used = HEADER.length;
  let listed = 0;
  const tail = (n: number) => `(${n} more skills: activate_skill lists every name)`;
  for (const s of skills) {
    const next = `- ${s.id}`;
    if (used + next.length + 1 + tail(skills.length).length + 1 > budgetChars) break;
    lines.push(next);
    used += next.length + 1;
    listed++;
  }
  lines.push(tail(skills.length - listed));
  return lines.join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
