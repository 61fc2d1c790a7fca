// Approving project tool folders (workspace trust), for the Tools panel and `tooldesk tools trust`:
// the folders a path names and the settings list after approving or withdrawing them.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { WELL_KNOWN_ROOTS, withProjectTrust } from '../../sources/discovery/tool-roots.ts';

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Project tool folders as paths relative to their project (`.omp/tools`, …). */
const PROJECT_FOLDERS = WELL_KNOWN_ROOTS.filter((s) => s.scope === 'project').map((s) => s.path({ userHome: '', cwd: '' }));

/** The tool folders PATH names: itself when it is one, else the project folders inside it. */
export function projectFoldersNamed(path: string): string[] {
  if (PROJECT_FOLDERS.some((rel) => path.endsWith(join('/', rel)))) return [path];
  const inside = PROJECT_FOLDERS.map((rel) => join(path, rel)).filter(isDirectory);
  return inside.length > 0 ? inside : [path];
}

/** `trusted` (the settings' list) with every folder in `folders` approved or withdrawn. */
export function withFoldersTrusted(trusted: readonly string[], folders: readonly string[], trust: boolean): string[] {
  let list = [...trusted];
  for (const folder of folders) list = withProjectTrust(list, folder, trust);
  return list;
}

export { isTrustedProjectFolder, withProjectTrust } from '../../sources/discovery/tool-roots.ts';
