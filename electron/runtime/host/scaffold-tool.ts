// `tooldesk tools new`: a tool from its template, written into a tools root. The authoring
// rules (names, templates, no overwrite) are the Tools panel's, from sources/authoring.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AuthoringError, createTool, templateFiles, templateIsFolder, validateToolName } from '../sources/authoring/tool-authoring.ts';
import { TEMPLATE_FORMATS, type TemplateFormat } from '../sources/authoring/templates-dir.ts';
import { writeFileAtomic } from '../sources/files/atomic-write.ts';

export { AuthoringError, TEMPLATE_FORMATS, validateToolName, type TemplateFormat };

/** Writes the template of `format` named `name` into `root`; returns the files written. Throws AuthoringError. */
export async function scaffoldTool(format: TemplateFormat, name: string, root: string): Promise<string[]> {
  if (format === 'three-layer' || format === 'script-py' || format === 'script-js') {
    const authored = format === 'three-layer' ? 'three-layer' : 'script';
    const overrides: Record<string, string> = format === 'script-js' ? { 'script.js': templateFiles('script-js', name)['script.js']! } : {};
    const tool = await createTool(root, authored, name, overrides);
    return Object.keys(tool.files).map((file) => join(tool.dir, file));
  }
  if (templateIsFolder(format)) throw new AuthoringError(`template ${format} is a folder; not supported here`);
  const files = templateFiles(format, name);
  await mkdir(root, { recursive: true });
  const written: string[] = [];
  for (const [file, content] of Object.entries(files)) {
    const path = join(root, file);
    if (existsSync(path)) throw new AuthoringError(`${path} already exists; choose another name`);
    await writeFileAtomic(path, content);
    written.push(path);
  }
  return written;
}
