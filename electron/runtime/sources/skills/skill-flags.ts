// What `skills check`, the Skills page and every card of a skill's calls flag: the patterns that
// published scans of public skills found behind their critical issues. A flag informs; the user
// decides. Text files only, each read once per content (cached by digest).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillDigests } from './skill-files.ts';
import type { Skill } from './skill-types.ts';

export interface SkillFlag {
  file: string;
  line: number;
  kind: 'hidden-unicode' | 'base64-blob' | 'pipe-to-shell' | 'credential-read' | 'write-outside';
  message: string;
}

const MAX_SCANNED_BYTES = 1024 * 1024;

// Bidirectional controls, zero-width characters, word joiners, a BOM inside text, tag characters.
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060-\u2064\uFEFF]|\uDB40[\uDC00-\uDC7F]/u;
const BASE64 = /[A-Za-z0-9+/]{200,}={0,2}/;
const PIPE_TO_SHELL = /\b(curl|wget|iwr|Invoke-WebRequest)\b[^\n|]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b|\b(curl|wget)\b[^\n|]*\|\s*(sudo\s+)?python3?\b|\biex\s*\(/i;
const CREDENTIALS = /(~|\$HOME|\bexpanduser\(['"]~|homedir\(\)|os\.homedir)[^\n]{0,40}\.(ssh|aws|gnupg|netrc|docker\/config|kube\/config)|\.ssh\/id_|\.aws\/credentials|(^|[\s'"/(])\.env(['"\s)]|$)|\/etc\/shadow/;
const WRITE_OUTSIDE =
  /open\(\s*(f?['"])(\/|~)[^'"]*\1\s*,\s*['"][wax]|(writeFile(Sync)?|appendFile(Sync)?)\(\s*['"`](\/|~)|>>?\s*(~\/|\/(etc|usr|home|root|var|Users)\b|\$HOME\/)|\b(rm\s+-rf?|chmod|chown)\s+(~\/|\/(?!tmp\b))|crontab\s+-|\.bashrc|\.zshrc|\.profile\b/;

const RULES: Array<{ kind: SkillFlag['kind']; re: RegExp; message: string }> = [
  { kind: 'hidden-unicode', re: HIDDEN, message: 'hidden or bidirectional Unicode characters (text that reads differently than it runs)' },
  { kind: 'base64-blob', re: BASE64, message: 'a long base64 blob (encoded content nobody can read)' },
  { kind: 'pipe-to-shell', re: PIPE_TO_SHELL, message: 'downloads and runs a script (`curl … | sh`)' },
  { kind: 'credential-read', re: CREDENTIALS, message: 'reads a credential path (~/.ssh, ~/.aws, .env …)' },
  { kind: 'write-outside', re: WRITE_OUTSIDE, message: "writes outside the skill's folder and the working folder" },
];

export function scanSkillFlags(skill: Pick<Skill, 'dir' | 'files'>): SkillFlag[] {
  const flags: SkillFlag[] = [];
  for (const rel of skill.files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(skill.dir, rel));
    } catch {
      continue; // a symlink out, a file gone: listed, never followed
    }
    if (bytes.length > MAX_SCANNED_BYTES || bytes.subarray(0, 8192).includes(0)) continue;
    const lines = bytes.toString('utf8').split('\n');
    const seen = new Set<SkillFlag['kind']>();
    lines.forEach((text, i) => {
      for (const rule of RULES) {
        if (seen.has(rule.kind) || !rule.re.test(text)) continue;
        // A BOM at the very start of a file is an editor's habit, not hidden text.
        if (rule.kind === 'hidden-unicode' && i === 0 && !HIDDEN.test(text.replace(/^\uFEFF/, ''))) continue;
        seen.add(rule.kind);
        flags.push({ file: rel, line: i + 1, kind: rule.kind, message: rule.message });
      }
    });
  }
  return flags;
}

export const flagText = (flag: SkillFlag): string => `${flag.file}:${flag.line}: ${flag.message}`;

/** Flags per skill, computed again only when a file of it changed. */
export class SkillFlagCache {
  readonly #cache = new Map<string, { key: string; flags: SkillFlag[] }>();
  constructor(private readonly digests: SkillDigests) {}

  flags(skill: Pick<Skill, 'dir' | 'files'>): SkillFlag[] {
    const key = JSON.stringify(this.digests.digestSet(skill.dir, skill.files));
    const known = this.#cache.get(skill.dir);
    if (known?.key === key) return known.flags;
    const flags = scanSkillFlags(skill);
    this.#cache.set(skill.dir, { key, flags });
    return flags;
  }
}
