// A module entry's group name (also the name `sandbox.perTool` knows it by).
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';

/** The folder name, or the file name without its extension (`folder`: known already, saves a stat). */
export function moduleGroupName(path: string, folder = isDirectory(path)): string {
  const name = basename(path);
  const ext = extname(name);
  return ext && !folder ? name.slice(0, -ext.length) : name;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
