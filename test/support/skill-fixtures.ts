// Skill folders for tests: written into a fresh fake user home (so ~/.agents/skills is the test's),
// or copied from test/fixtures/skills/: our own `pdf` (MIT; Anthropic's is proprietary and cannot
// be kept in the repo) and Anthropic's `skill-creator` (Apache-2.0).
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtureSkills = { pdf: '../fixtures/skills/own/pdf', 'skill-creator': '../fixtures/skills/anthropic/skill-creator' } as const;

/** A fresh user home and TOOLDESK_HOME. */
export function skillHomes(): { userHome: string; home: string; work: string } {
  const base = mkdtempSync(join(tmpdir(), 'td-skills-'));
  const userHome = join(base, 'user');
  const home = join(base, 'tooldesk');
  const work = join(base, 'work');
  for (const d of [userHome, home, work]) mkdirSync(d, { recursive: true });
  return { userHome, home, work };
}

/** Writes a skill folder `root/folder` with SKILL.md (front matter from `fields`) and `files`. */
export function writeSkill(root: string, folder: string, fields: Record<string, string>, body = 'Do the thing.\n', files: Record<string, string> = {}): string {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  const front = Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('\n');
  writeFileSync(join(dir, 'SKILL.md'), `---\n${front}\n---\n\n${body}`);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/** Copies a fixture skill (real skills, real scripts) into `root`. */
export function copyFixtureSkill(name: keyof typeof fixtureSkills, root: string): string {
  const dir = join(root, name);
  cpSync(fileURLToPath(new URL(fixtureSkills[name], import.meta.url)), dir, { recursive: true });
  return dir;
}
