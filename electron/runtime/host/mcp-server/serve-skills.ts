// `tooldesk mcp serve` serves Tooldesk's enabled local skills through the SDK's SkillsExtension
// (SEP-2640: skills/list with a SHA-256 and size per file, files as skill:// resources). The
// catalog reads the skill folders through a SkillFiles adapter of ours (one folder per enabled
// skill, symlinks reported unsupported so the SDK skips that skill) and is reloaded when skills change.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadResourceResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { SkillsExtension, type SkillCatalog, type SkillFiles } from '@modelcontextprotocol/server/ext/skills';
import { skillEnabled, type Skill, type SkillSource } from '../../sources/skills/index.ts';

export const SKILL_URI_PREFIX = 'skill://';

/** The folder name a skill is served under: its name, or `label-name` when qualified. */
const servedName = (skill: Skill): string => skill.id.replace(/[^a-z0-9-]/g, '-');

export function skillFilesOf(skills: () => readonly Skill[]): SkillFiles {
  const folder = (path: string): { skill: Skill; rest: string } => {
    const [first, ...rest] = path.split('/');
    const skill = skills().find((s) => servedName(s) === first);
    if (!skill || rest.includes('..')) throw new Error(`no such skill file: ${path}`);
    return { skill, rest: rest.join('/') };
  };
  return {
    async list(dir) {
      if (dir === '') return skills().map((s) => ({ name: servedName(s), kind: 'directory' as const }));
      const { skill, rest } = folder(dir);
      const entries = await readdir(join(skill.dir, rest), { withFileTypes: true });
      return entries
        .filter((e) => !['.git', 'node_modules', '__pycache__', '.venv'].includes(e.name))
        .map((e) => ({ name: e.name, kind: e.isDirectory() ? ('directory' as const) : e.isFile() ? ('file' as const) : ('unsupported' as const) }));
    },
    async read(path) {
      const { skill, rest } = folder(path);
      const file = join(skill.dir, rest);
      if (!(await lstat(file)).isFile()) throw new Error(`not a regular file: ${path}`);
      return readFile(file);
    },
  };
}

/**
 * The catalog of the enabled local skills, kept in step with the source; `keep` narrows it (the
 * skills `mcp serve --toolset`'s set names, read at every listing). Contract: never throws.
 */
export async function servedSkills(source: SkillSource, settings: () => Parameters<typeof skillEnabled>[1], log: (message: string) => void, keep: (id: string) => boolean = () => true): Promise<{ catalog: SkillCatalog; close(): void }> {
  const local = () => source.skills().filter((s) => s.dir && s.origin.kind !== 'mcp' && skillEnabled(s, settings()) && keep(s.id));
  const catalog = await SkillsExtension.load(skillFilesOf(local), { onWarning: (w) => log(`skills: ${w.path}: ${w.message}`) });
  const off = source.onChanged(() => void catalog.reload().catch((error: Error) => log(`skills: reload failed: ${error.message}`)));
  return { catalog, close: off };
}

/**
 * Attaches the extension to a low-level `Server` whose resources handlers are ours (the
 * variables): the extension registers its skill:// template through the McpServer-shaped
 * object below, and our resources/read hands skill:// URIs to what it registered.
 */
export function attachSkills(server: Server, extension: SkillsExtension): (uri: string, ctx: ServerContext) => Promise<ReadResourceResult> {
  let read: ((uri: URL, variables: unknown, ctx: ServerContext) => Promise<ReadResourceResult>) | undefined;
  const host = {
    server,
    isConnected: () => false,
    registerResource: (_name: string, _template: unknown, _meta: unknown, callback: typeof read) => {
      read = callback;
    },
  };
  extension.attach(host as unknown as Parameters<SkillsExtension['attach']>[0]);
  return async (uri, ctx) => {
    if (!read) throw new Error('the skills extension registered no reader');
    return read(new URL(uri), {}, ctx);
  };
}
