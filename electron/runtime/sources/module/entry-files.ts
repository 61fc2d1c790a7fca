// Which files of a module entry are code to load: a loose file, the folder's package.json
// `pi.extensions` list, or its index (index.ts beats index.js beats index.mjs).
import { existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { isPlainObject, readJsonFile } from '../files/read-json-file.ts';
import { unreadableReason } from '../files/read-text-file.ts';

export const MODULE_INDEX_FILES = ['index.ts', 'index.js', 'index.mjs'];
const DECLARATIVE = new Set(['.md', '.json']);
export const DECLARATIVE_MESSAGE = 'Declarative tool files (.md, .json) cannot be loaded as executable modules';

/** `maxBytes`: the tool source size limit (settings.limits.toolSourceMaxBytes). */
export async function moduleEntryFiles(path: string, maxBytes?: number): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    return { files: [], diagnostics: [{ severity: 'error', file: path, message: `Cannot read: ${(error as Error).message}`, code: 'unreadable' }] };
  }
  if (!isDirectory) {
    if (DECLARATIVE.has(extname(path).toLowerCase())) return { files: [], diagnostics: [declarative(path)] };
    return checkedCode([path], [], maxBytes);
  }
  const diagnostics: Diagnostic[] = [];
  const packageFile = join(path, 'package.json');
  if (existsSync(packageFile)) {
    const read = await readJsonFile(packageFile, maxBytes);
    if (!read.ok) diagnostics.push({ ...read.diagnostic, severity: 'warning', hint: 'package.json is ignored until it is valid JSON; the index file is loaded instead.' });
    else if (isPlainObject(read.value) && isPlainObject(read.value.pi) && read.value.pi.extensions !== undefined) {
      const listed = read.value.pi.extensions;
      if (!Array.isArray(listed) || !listed.every((e) => typeof e === 'string')) {
        diagnostics.push({ severity: 'error', file: packageFile, message: '"pi.extensions" must be an array of file paths', hint: 'Write "pi": {"extensions": ["./index.ts"]}.', code: 'module-bad-extensions' });
      } else {
        const files: string[] = [];
        const base = resolve(path);
        for (const relative of listed as string[]) {
          const file = resolve(base, relative);
          if (file !== base && !file.startsWith(base + sep)) {
            diagnostics.push({ severity: 'error', file: packageFile, message: `"pi.extensions" entry "${relative}" points outside the tool folder`, code: 'module-bad-extensions' });
          } else if (DECLARATIVE.has(extname(file).toLowerCase())) diagnostics.push(declarative(file));
          else if (!existsSync(file)) diagnostics.push({ severity: 'error', file: packageFile, message: `"pi.extensions" lists "${relative}", which does not exist`, code: 'module-missing-file' });
          else files.push(statSync(file).isDirectory() ? indexOf(file) ?? file : file);
        }
        return checkedCode(files, diagnostics, maxBytes);
      }
    }
  }
  const index = indexOf(path);
  if (!index) diagnostics.push({ severity: 'error', file: path, message: 'Module tool folder has no index.ts, index.js or index.mjs', hint: 'Add index.ts exporting a default factory function, or list entry files in package.json "pi": {"extensions": […]}.', code: 'module-no-index' });
  return checkedCode(index ? [index] : [], diagnostics, maxBytes);
}

/** Code is loaded synchronously by jiti: a FIFO or device would block the whole app, so refuse it. */
function checkedCode(files: string[], diagnostics: Diagnostic[], maxBytes: number | undefined): { files: string[]; diagnostics: Diagnostic[] } {
  const ok: string[] = [];
  for (const file of files) {
    const unreadable = unreadableReason(file, maxBytes);
    if (unreadable) diagnostics.push({ severity: 'error', file, message: `Cannot load module: ${unreadable.reason}`, hint: unreadable.hint, code: 'unreadable' });
    else ok.push(file);
  }
  return { files: ok, diagnostics };
}

function indexOf(dir: string): string | null {
  for (const name of MODULE_INDEX_FILES) if (existsSync(join(dir, name))) return join(dir, name);
  return null;
}

function declarative(file: string): Diagnostic {
  return { severity: 'error', file, message: DECLARATIVE_MESSAGE, hint: 'Point at the .ts/.js file that exports the tool factory.', code: 'module-declarative' };
}
