// "New tool" for skills: resources/templates/skill/ copied into TOOLDESK_HOME/skills/NAME with
// the name filled in. The result loads as any skill (its folder is watched).
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newSkillNameProblem } from '../../../../shared/api-skills.ts';
import { templatesDir } from '../authoring/templates-dir.ts';
import { installedSkillsDir } from './skill-roots.ts';

/** Contract: throws an Error saying what is wrong with the name, or where the skill already is. */
export function newSkill(home: string, name: string): { dir: string; files: string[] } {
  const problem = newSkillNameProblem(name);
  if (problem) throw new Error(problem);
  const dir = join(installedSkillsDir(home), name);
  if (existsSync(dir)) throw new Error(`${dir} already exists; choose another name`);
  cpSync(join(templatesDir(), 'skill'), dir, { recursive: true });
  const files: string[] = [];
  const fill = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) fill(path);
      else {
        writeFileSync(path, readFileSync(path, 'utf8').replaceAll('__NAME__', name));
        files.push(path);
      }
    }
  };
  fill(dir);
  return { dir, files: files.sort() };
}
