// `skills install PATH|ZIP`: a skill folder, or a .zip / .skill archive, staged in the install
// folder's own staging area, read (front matter, files, flags) for the user to see, and only then
// moved into TOOLDESK_HOME/skills. Archives are zip-slip safe (no absolute or `..` names, no
// symlinks) and bounded (entries, bytes per file and in all), checked before anything is written.
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import JSZip from 'jszip';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { parseSkill } from './parse-skill.ts';
import { installedSkillsDir } from './skill-roots.ts';
import { listSkillFiles } from './skill-files.ts';
import { flagText, scanSkillFlags } from './skill-flags.ts';
import type { SkillFrontMatter } from './skill-types.ts';

export const INSTALL_LIMITS = { maxEntries: 2000, maxFileBytes: 20 * 1024 * 1024, maxTotalBytes: 100 * 1024 * 1024, maxArchiveBytes: 50 * 1024 * 1024 };

export interface StagedSkill {
  frontMatter: SkillFrontMatter;
  files: string[];
  flags: string[];
  diagnostics: Diagnostic[];
  /** Where it will go. */
  target: string;
  /** Moves it into place; throws when a skill of that name is installed already. */
  commit(): string;
  discard(): void;
}

/** Contract: throws an Error whose message names the file and what is wrong; leaves nothing behind then. */
export async function stageSkill(home: string, source: string): Promise<StagedSkill> {
  const skillsDir = installedSkillsDir(home);
  mkdirSync(skillsDir, { recursive: true });
  const staging = mkdtempSync(join(skillsDir, '.staging-'));
  try {
    const stats = lstatSync(source);
    if (stats.isDirectory()) copyFolder(source, join(staging, 'skill'));
    else if (/\.(zip|skill)$/i.test(source)) await extractZip(source, join(staging, 'skill'));
    else throw new Error(`${source}: not a skill folder, .zip or .skill archive`);
    const root = skillRoot(join(staging, 'skill'), source);
    const file = join(root, 'SKILL.md');
    const parsed = parseSkill(readFileSync(file, 'utf8'), file, basename(root) === 'skill' ? basename(source).replace(/\.(zip|skill)$/i, '') : basename(root));
    if (!parsed.skill) throw new Error(`${source}: ${parsed.diagnostics.map((d) => d.message).join('; ')}`);
    const name = parsed.skill.frontMatter.name;
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) throw new Error(`${source}: the skill's name "${name}" cannot be a folder name (lowercase letters, digits, hyphens)`);
    const files = listSkillFiles(root).files;
    const target = join(skillsDir, name);
    return {
      frontMatter: parsed.skill.frontMatter,
      files,
      flags: scanSkillFlags({ dir: root, files }).map(flagText),
      diagnostics: parsed.diagnostics.filter((d) => !d.message.includes('does not match its folder')),
      target,
      commit() {
        try {
          lstatSync(target);
          throw new Error(`a skill named "${name}" is installed already (${target}): remove it first with \`tooldesk skills remove ${name}\``);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        renameSync(root, target);
        rmSync(staging, { recursive: true, force: true });
        return target;
      },
      discard: () => rmSync(staging, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/** The folder holding SKILL.md: the archive's top, or its one top-level folder. */
function skillRoot(dir: string, source: string): string {
  const entries = readdirSync(dir);
  if (entries.includes('SKILL.md')) return dir;
  if (entries.length === 1 && lstatSync(join(dir, entries[0]!)).isDirectory() && readdirSync(join(dir, entries[0]!)).includes('SKILL.md')) return join(dir, entries[0]!);
  throw new Error(`${source}: no SKILL.md at its top or in its one top-level folder`);
}

/** Copies regular files and folders; a symlink is refused (it could lead anywhere once installed). */
function copyFolder(from: string, to: string): void {
  let count = 0;
  let total = 0;
  const walk = (src: string, dst: string) => {
    mkdirSync(dst, { recursive: true });
    for (const entry of readdirSync(src, { withFileTypes: true })) {
      const s = join(src, entry.name);
      if (entry.name === '.git' || entry.name === 'node_modules' || entry.name === '__pycache__') continue;
      if (entry.isSymbolicLink()) throw new Error(`${s}: a symbolic link; a skill to install holds files and folders only`);
      if (entry.isDirectory()) walk(s, join(dst, entry.name));
      else if (entry.isFile()) {
        const size = lstatSync(s).size;
        if (++count > INSTALL_LIMITS.maxEntries) throw new Error(`${from}: more than ${INSTALL_LIMITS.maxEntries} files`);
        if (size > INSTALL_LIMITS.maxFileBytes) throw new Error(`${s}: ${size} bytes, more than ${INSTALL_LIMITS.maxFileBytes} per file`);
        if ((total += size) > INSTALL_LIMITS.maxTotalBytes) throw new Error(`${from}: more than ${INSTALL_LIMITS.maxTotalBytes} bytes in all`);
        cpSync(s, join(dst, entry.name));
      }
    }
  };
  walk(from, to);
}

async function extractZip(archive: string, to: string): Promise<void> {
  const size = lstatSync(archive).size;
  if (size > INSTALL_LIMITS.maxArchiveBytes) throw new Error(`${archive}: ${size} bytes, more than ${INSTALL_LIMITS.maxArchiveBytes}`);
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(readFileSync(archive));
  } catch (error) {
    throw new Error(`${archive}: not a readable zip archive (${(error as Error).message})`);
  }
  const entries = Object.values(zip.files);
  if (entries.length > INSTALL_LIMITS.maxEntries) throw new Error(`${archive}: ${entries.length} entries, more than ${INSTALL_LIMITS.maxEntries}`);
  const base = resolve(to);
  // Every name is checked before anything is written.
  for (const entry of entries) {
    const name = entry.name.replace(/\\/g, '/');
    const target = resolve(base, name);
    if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..') || (target !== base && !target.startsWith(base + sep))) {
      throw new Error(`${archive}: the entry "${entry.name}" would be written outside the skill's folder (zip-slip); nothing was installed`);
    }
    const mode = (entry as unknown as { unixPermissions?: number | null }).unixPermissions;
    if (typeof mode === 'number' && (mode & 0o170000) === 0o120000) throw new Error(`${archive}: the entry "${entry.name}" is a symbolic link; nothing was installed`);
  }
  let total = 0;
  for (const entry of entries) {
    const target = resolve(base, entry.name.replace(/\\/g, '/'));
    if (entry.dir) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    // Streamed and counted: a zip bomb stops at the bound, whatever sizes its directory claims.
    const chunks: Buffer[] = [];
    let size = 0;
    await new Promise<void>((done, fail) => {
      const stream = entry.nodeStream('nodebuffer');
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        total += chunk.length;
        if (size > INSTALL_LIMITS.maxFileBytes || total > INSTALL_LIMITS.maxTotalBytes) {
          (stream as unknown as { destroy?: () => void }).destroy?.();
          fail(new Error(`${archive}: "${entry.name}" unpacks past the bounds (${INSTALL_LIMITS.maxFileBytes} bytes a file, ${INSTALL_LIMITS.maxTotalBytes} in all); nothing was installed`));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('end', () => done());
      stream.on('error', fail);
    });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, Buffer.concat(chunks));
  }
}
