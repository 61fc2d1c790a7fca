// Tool authoring for the API over sources/tool-authoring.ts: new tools go to the first user root;
// only tools inside a user root (never another project's folder) can be read, edited or deleted.
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { apiError } from '../../../../shared/api.ts';
import { loadedToolFile, newTool } from '../../sources/authoring/new-tool.ts';
import { deleteTool, formatOfFolder, readTool, updateTool } from '../../sources/authoring/tool-authoring.ts';
import type { ToolRoot } from '../../sources/discovery/tool-roots.ts';
import type { ToolGroup } from '../../tools/types.ts';
import type { ToolAuthoringPort } from './tool-service.ts';

export interface AuthoringServiceOptions {
  /** The current roots (settings may change them). */
  roots: () => ToolRoot[];
  /** The registry's current groups, to find a tool's folder by its registered name. */
  groups: () => ToolGroup[];
  /** Re-reads the touched folder (the registry's reloadPaths). */
  changed: (paths: string[]) => Promise<unknown>;
}

const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !rel.includes(sep);
};

export function createAuthoringService(options: AuthoringServiceOptions): ToolAuthoringPort {
  const userRoots = () => options.roots().filter((r) => r.kind === 'user').map((r) => r.path);

  /** A tool's folder from its registered name (`script_json_pick`) or its folder name. */
  const folderOf = (name: string): { root: string; dir: string } => {
    const roots = userRoots();
    for (const group of options.groups()) {
      for (const tool of group.tools) {
        if (tool.definition.function.name !== name || !tool.source) continue;
        if (tool.source.format !== 'script' && tool.source.format !== 'three-layer') {
          throw apiError('AuthoringError', `"${name}" is a ${tool.source.format} tool; edit ${tool.source.file} in your editor`);
        }
        const dir = dirname(tool.source.file);
        const root = roots.find((r) => isInside(r, dir));
        if (!root) throw apiError('AuthoringError', `"${name}" lives in ${dir}, outside your Tooldesk tools folders; Tooldesk edits only its own tools`);
        return { root, dir };
      }
    }
    for (const root of roots) {
      const dir = join(root, name);
      if (isInside(root, dir) && existsSync(dir)) return { root, dir };
    }
    throw apiError('NotFoundError', `no script or three-layer tool "${name}" in ${roots.join(', ') || 'the tools folders'}`);
  };

  return {
    async create(format, name, files) {
      const root = userRoots()[0];
      if (!root) throw apiError('AuthoringError', 'no tools folder is configured (Settings → Tool roots)');
      const tool = await newTool(root, format, name, { files: files ?? {}, loadedTool: loadedToolFile(options.groups()) });
      await options.changed([tool.entry]);
      return { entry: tool.entry, paths: tool.paths, ...(tool.editable ? { files: tool.editable } : {}) };
    },
    async read(name) {
      const { dir } = folderOf(name);
      return readTool(dir, formatOfFolder(dir));
    },
    async update(name, files) {
      const { root, dir } = folderOf(name);
      const tool = await updateTool(root, dir, files);
      await options.changed([dir]);
      return tool;
    },
    async delete(name) {
      const { root, dir } = folderOf(name);
      await deleteTool(root, dir);
      await options.changed([dir]);
    },
  };
}
