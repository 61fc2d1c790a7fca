// Skills (issue 34): characters the catalog of 200 enabled skills adds to each request (≤ 8 000),
// and the time to list 200 skills warm (a full re-read of the folders after a first one; ≤ 50 ms),
// also as Settings → Skills lists them (listSkills: flags, declared dependencies, environments).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings } from '../../shared/settings.ts';
import { SkillSource } from '../../electron/runtime/sources/skills/skill-source.ts';
import { skillCatalog } from '../../electron/runtime/sources/skills/skill-catalog.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import { createSkillsService } from '../../electron/runtime/host/skills/skills-service.ts';
import { openSettingsStore } from '../../electron/runtime/store/settings-store.ts';
import { gc, percentile, report } from './report.ts';

const SKILLS = 200;
const RUNS = 20;

export async function run(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'td-bench-skills-'));
  const root = join(base, 'skills');
  for (let i = 0; i < SKILLS; i++) {
    const dir = join(root, `skill-${i}`);
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    mkdirSync(join(dir, 'references'), { recursive: true });
    const description = `Handles task family ${i}: reads, converts and checks files of kind ${i % 17} when the user asks for it, with examples and edge cases.`;
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: skill-${i}\ndescription: ${description}\nlicense: MIT\n---\n\n# Skill ${i}\n\n${'Step by step instructions. '.repeat(80)}\n`);
    writeFileSync(join(dir, 'scripts/run.py'), 'print("hello")\n');
    writeFileSync(join(dir, 'references/guide.md'), '# Guide\n'.repeat(50));
  }
  const settings = defaultSettings();
  const source = new SkillSource({ home: base, roots: () => [{ kind: 'user', label: 'agents', root }], settings: () => settings, context: () => createSourceContext(settings, base) });
  source.load();
  const catalog = skillCatalog(source.enabledSkills());
  report(catalog.length, 'chars', `catalog of ${SKILLS} skills in each request (budget 8 000)`);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    gc();
    const start = performance.now();
    source.load();
    source.skills();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  report(percentile(times, 50), 'ms', `list ${SKILLS} skills warm (re-read every folder), median of ${RUNS}`);
  report(percentile(times, 90), 'ms', `list ${SKILLS} skills warm, p90`);

  // The app's listing: a re-read of the folders and the Skills section's view of every skill.
  const store = openSettingsStore(base);
  const service = createSkillsService({ source, settings: store, groups: () => source.groups(), create: () => ({ dir: '', files: [] }) });
  service.view();
  const viewTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    gc();
    const start = performance.now();
    source.load();
    service.view();
    viewTimes.push(performance.now() - start);
  }
  viewTimes.sort((a, b) => a - b);
  report(percentile(viewTimes, 50), 'ms', `listSkills of ${SKILLS} skills warm (Settings → Skills), median of ${RUNS}`);
  report(percentile(viewTimes, 90), 'ms', `listSkills of ${SKILLS} skills warm, p90`);
  store.close();
  source.close();
}
