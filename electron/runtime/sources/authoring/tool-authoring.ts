// Creates, reads, updates and deletes script-folder and three-layer tools (seed 001's and seed
// 004's authoring flows). Names and file names are validated; nothing is written outside the
// tool's own folder; every write is atomic. New tools of every format start in new-tool.ts.
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { AuthoringFormat, ToolFiles } from '../../../../shared/api.ts';
import { newToolNameProblem, type NewToolFormat } from '../../../../shared/new-tool-formats.ts';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { writeFileAtomic } from '../files/atomic-write.ts';
import { readTextFile } from '../files/read-text-file.ts';
import { readScriptManifest } from '../script-folder/manifest.ts';
import { noScriptDiagnostic, scriptFileOf } from '../script-folder/index.ts';
import { TEMPLATE_TOOL_NAME, templatesDir } from './templates-dir.ts';
import { readThreeLayerFolder } from '../three-layer/index.ts';

export type AuthoredFormat = AuthoringFormat;

/** The payload type, with the diagnostics always present (they are read back after every write). */
export type AuthoredTool = ToolFiles & { diagnostics: Diagnostic[] };

export class AuthoringError extends Error {
  override name = 'AuthoringError';
}

/** The only files each format's folder holds (anything else is refused). */
export const AUTHORED_FILES: Record<AuthoredFormat, readonly string[]> = {
  script: ['tool.json', 'script.py', 'script.js'],
  'three-layer': ['definition.json', 'execution.py', 'return.json', 'meta.json'],
};
const MARKER: Record<AuthoredFormat, string> = { script: 'tool.json', 'three-layer': 'definition.json' };
const MAX_FILE_CHARS = 1024 * 1024;

/** The folder formats a new tool can be made in, and the format the editor knows them by. */
export type NewFolderFormat = Extract<NewToolFormat, 'script-py' | 'script-js' | 'three-layer'>;
const AUTHORED_AS: Record<NewFolderFormat, AuthoredFormat> = { 'script-py': 'script', 'script-js': 'script', 'three-layer': 'three-layer' };
/** A new script tool holds the script of its own language only (script.js would win over script.py). */
const NOT_IN_NEW: Partial<Record<NewFolderFormat, string>> = { 'script-py': 'script.js', 'script-js': 'script.py' };

function checkFileNames(format: AuthoredFormat, files: Record<string, string>, refused?: string): void {
  for (const [file, content] of Object.entries(files)) {
    const allowed = AUTHORED_FILES[format].filter((f) => f !== refused);
    if (!allowed.includes(file)) {
      throw new AuthoringError(`"${file}" is not a ${format} tool file; allowed: ${allowed.join(', ')}`);
    }
    if (typeof content !== 'string') throw new AuthoringError(`the content of "${file}" must be text`);
    if (content.length > MAX_FILE_CHARS) throw new AuthoringError(`"${file}" is larger than ${MAX_FILE_CHARS} characters`);
  }
}

/** Refuses a folder that is not a direct child of `root`, and writing through symlinks. */
function checkInside(root: string, dir: string): void {
  const rel = relative(resolve(root), resolve(dir));
  if (!rel || rel.startsWith('..') || rel.includes(sep) || rel.startsWith('/')) throw new AuthoringError(`${dir} is not a tool folder directly inside ${root}`);
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    const path = join(dir, file);
    if (existsSync(path) && lstatSync(path).isSymbolicLink()) throw new AuthoringError(`${path} is a symbolic link; Tooldesk does not write through links`);
    await writeFileAtomic(path, content);
  }
}

/** The template's files for a format, with the template's name replaced by `name`. */
export function templateFiles(format: NewToolFormat, name: string): Record<string, string> {
  const base = join(templatesDir(), format);
  const folder = join(base, TEMPLATE_TOOL_NAME);
  const files: Record<string, string> = {};
  const source = existsSync(folder) && statSync(folder).isDirectory() ? folder : base;
  for (const file of readdirSync(source)) {
    const path = join(source, file);
    // Caches a check left beside a template are not part of it (a stale cache would mislead).
    if (!statSync(path).isFile() || file.endsWith('.tool.json') || file.startsWith('.')) continue;
    const target = source === folder ? file : file.replace(TEMPLATE_TOOL_NAME, name);
    files[target] = readFileSync(path, 'utf8').replaceAll(TEMPLATE_TOOL_NAME, name);
  }
  return files;
}

/** A script-folder or three-layer tool from its template, `overrides` replacing template files. */
export async function createTool(root: string, template: NewFolderFormat, name: string, overrides: Record<string, string> = {}): Promise<AuthoredTool> {
  const format = AUTHORED_AS[template];
  const problem = newToolNameProblem(template, name);
  if (problem) throw new AuthoringError(problem);
  checkFileNames(format, overrides, NOT_IN_NEW[template]);
  const dir = join(root, name);
  checkInside(root, dir);
  if (existsSync(dir)) throw new AuthoringError(`${dir} already exists; choose another name or edit that tool`);
  const files = { ...templateFiles(template, name), ...overrides };
  await mkdir(root, { recursive: true });
  await mkdir(dir);
  try {
    await writeFiles(dir, files);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return readTool(dir, format);
}

export async function readTool(dir: string, format: AuthoredFormat = formatOfFolder(dir)): Promise<AuthoredTool> {
  const files: Record<string, string> = {};
  for (const file of AUTHORED_FILES[format]) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    try {
      files[file] = await readTextFile(path);
    } catch (error) {
      throw new AuthoringError(`${path} cannot be read: ${(error as Error).message}`);
    }
  }
  return { format, name: basename(dir), dir, files, diagnostics: await checkToolFolder(dir, format) };
}

/** Writes the given files (others stay as they are). `root` bounds where the folder may be. */
export async function updateTool(root: string, dir: string, files: Record<string, string>): Promise<AuthoredTool> {
  checkInside(root, dir);
  const format = formatOfFolder(dir);
  checkFileNames(format, files);
  await writeFiles(dir, files);
  return readTool(dir, format);
}

export async function deleteTool(root: string, dir: string): Promise<void> {
  checkInside(root, dir);
  formatOfFolder(dir); // refuses folders that are not tools
  if (lstatSync(dir).isSymbolicLink()) {
    await rm(dir);
    return;
  }
  await rm(dir, { recursive: true });
}

export function formatOfFolder(dir: string): AuthoredFormat {
  if (existsSync(join(dir, MARKER['three-layer'])) && existsSync(join(dir, 'execution.py'))) return 'three-layer';
  if (existsSync(join(dir, MARKER.script))) return 'script';
  throw new AuthoringError(`${dir} is not a script or three-layer tool folder`);
}

/** What `tools check` would say about one folder, without running anything. */
export async function checkToolFolder(dir: string, format: AuthoredFormat): Promise<Diagnostic[]> {
  if (format === 'script') {
    const { diagnostics } = await readScriptManifest(dir);
    if (!scriptFileOf(dir)) diagnostics.push(noScriptDiagnostic(dir));
    return diagnostics;
  }
  return (await readThreeLayerFolder(dir)).diagnostics;
}
