// A new tool of any format from its template (shared/new-tool-formats.ts): `tooldesk tools new`
// and the API's createTool both come here. Folder formats go through createTool (the editor's
// rules); one-file formats (Python, PowerShell, modules) are written into the root itself, where
// the registry loads them (modules in the root's tool host, out of process).
import { lstatSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NEW_TOOL_FORMAT_INFO, newToolNameProblem, newToolRegisteredName, type NewToolFormat } from '../../../../shared/new-tool-formats.ts';
import { BUILTIN_TOOL_NAMES } from '../discovery/reserved-tool-names.ts';
import type { ToolGroup } from '../../tools/types.ts';
import { writeFileAtomic } from '../files/atomic-write.ts';
import { templatesDir } from './templates-dir.ts';
import { AuthoringError, createTool, templateFiles, type AuthoredTool, type NewFolderFormat } from './tool-authoring.ts';

export interface NewTool {
  format: NewToolFormat;
  name: string;
  /** The file or folder the registry loads as the tool's entry. */
  entry: string;
  /** Every file written, absolute. */
  paths: string[];
  /** Script-folder and three-layer tools: their files as the editor shows them. */
  editable?: AuthoredTool;
}

// Every entry shape that would load under the same name; one name, one entry per root.
const ENTRY_SUFFIXES = ['', '.py', '.ps1', '.ts', '.js', '.mjs'];

function takenBy(root: string, name: string): string | null {
  for (const suffix of ENTRY_SUFFIXES) {
    const path = join(root, name + suffix);
    try {
      lstatSync(path); // a dangling link counts: writing there would follow or replace it
      return path;
    } catch {
      // free
    }
  }
  return null;
}

/** NewToolOptions.loadedTool over the registry's groups. */
export function loadedToolFile(groups: readonly ToolGroup[]): (toolName: string) => string | null {
  return (toolName) => {
    for (const group of groups) for (const tool of group.tools) if (tool.definition.function.name === toolName) return tool.source?.file ?? `group ${group.name}`;
    return null;
  };
}

export interface NewToolOptions {
  /** Replaces template files of script and three-layer tools (other formats take none). */
  files?: Record<string, string>;
  /**
   * Contract: the file of a loaded tool already registered under `toolName`, else null. A clash
   * would load only one of the two, so the new tool is refused before anything is written.
   */
  loadedTool?: (toolName: string) => string | null;
}

/**
 * Writes the template of `format` named `name` into `root`. Throws AuthoringError, naming the
 * name or file and what to do.
 */
export async function newTool(root: string, format: NewToolFormat, name: string, options: NewToolOptions = {}): Promise<NewTool> {
  const files = options.files ?? {};
  const info = NEW_TOOL_FORMAT_INFO[format];
  if (!info) throw new AuthoringError(`unknown format "${String(format)}"`);
  const problem = newToolNameProblem(format, name);
  if (problem) throw new AuthoringError(problem);
  const registered = newToolRegisteredName(format, name);
  if (BUILTIN_TOOL_NAMES.includes(registered)) throw new AuthoringError(`"${name}" is the name of a built-in tool; choose another name`);
  const owner = options.loadedTool?.(registered);
  if (owner) throw new AuthoringError(`a tool named "${registered}" already exists (${owner}); choose another name`);
  const taken = takenBy(root, name);
  if (taken) throw new AuthoringError(`${taken} already exists in this tools folder; choose another name`);
  if (!info.extension) {
    const editable = await createTool(root, format as NewFolderFormat, name, files);
    return { format, name, entry: editable.dir, paths: Object.keys(editable.files).map((file) => join(editable.dir, file)), editable };
  }
  if (Object.keys(files).length > 0) throw new AuthoringError(`a ${format} tool is one file made from its template; files can be given only for script and three-layer tools`);
  const entry = join(root, name + info.extension);
  const [content] = Object.values(templateFiles(format, name));
  if (content === undefined) throw new AuthoringError(`the ${format} template is missing from ${templatesDir()}; reinstall Tooldesk`);
  await mkdir(root, { recursive: true });
  await writeFileAtomic(entry, content);
  return { format, name, entry, paths: [entry] };
}
