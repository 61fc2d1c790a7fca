// Parses stale PowerShell modules: with PowerShell's own AST (resources/powershell/parse.ps1,
// all files in one pwsh process) when pwsh is on PATH, else with the static TypeScript parser
// in this process. Both give the same output.
import { readFile } from 'node:fs/promises';
import type { CachedDiagnostic } from '../cached-modules/cache.ts';
import { findPowerShell, POWERSHELL_FLAGS } from './find-powershell.ts';
import { helperScript } from '../process/helper-scripts.ts';
import type { ParsedPowerShellModule } from './parse-source.ts';
import { parsePowerShellSource } from './parse-source.ts';
import type { SourceContext } from '../types.ts';

/** Bump when either parser's output changes: every cache is then re-parsed. */
export const POWERSHELL_PARSER_VERSION = 'ps-2';

export type ParsedPowerShellFile = ({ ok: true } & ParsedPowerShellModule) | { ok: false; error: CachedDiagnostic };

/** Decodes a script: UTF-8 (BOM or not) or UTF-16 with a BOM, as PowerShell editors save them. */
export function decodePowerShellSource(bytes: Buffer): { ok: true; text: string } | { ok: false; error: CachedDiagnostic } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { ok: true, text: new TextDecoder('utf-16le').decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { ok: true, text: new TextDecoder('utf-16be').decode(bytes.subarray(2)) };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const before = bytes.subarray(0, offset);
    const line = before.filter((b) => b === 0x0a).length + 1;
    const column = offset - (before.lastIndexOf(0x0a) + 1) + 1;
    return { ok: false, error: { severity: 'error', line, column, code: 'not-utf8', message: `The file is not valid UTF-8 (byte 0x${bytes[offset]?.toString(16).padStart(2, '0')})`, hint: 'Save the file as UTF-8.' } };
  }
}

/** Offset of the first byte that starts an invalid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k++) {
      if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return i;
}

export async function parsePowerShellFileStatically(path: string): Promise<ParsedPowerShellFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return { ok: false, error: { severity: 'error', code: 'unreadable', message: `Cannot read: ${(error as Error).message}` } };
  }
  const decoded = decodePowerShellSource(bytes);
  if (!decoded.ok) return decoded;
  const parsed = parsePowerShellSource(decoded.text);
  return parsed.error ? { ok: false, error: parsed.error } : { ok: true, ...parsed };
}

/** Parses `paths`. Contract: never throws. */
export async function parsePowerShellModules(paths: string[], ctx: SourceContext): Promise<Map<string, ParsedPowerShellFile>> {
  const result = new Map<string, ParsedPowerShellFile>();
  const pwsh = findPowerShell();
  if (pwsh) {
    const run = await ctx.runner({
      command: pwsh,
      args: [...POWERSHELL_FLAGS, '-File', helperScript.powershellParser()],
      cwd: ctx.home,
      stdin: JSON.stringify(paths),
      timeoutMs: Math.max(60_000, paths.length * 1000),
      maxOutputBytes: 256 * 1024 * 1024,
    });
    try {
      const output = JSON.parse(run.stdout.replace(/^\uFEFF/, '')) as { modules: ({ path: string } & ParsedPowerShellFile)[] };
      for (const module of output.modules) result.set(module.path, module);
    } catch {
      // pwsh failed to start or to parse: the static parser below still gives an answer.
    }
  }
  for (const path of paths) {
    if (!result.has(path)) result.set(path, await parsePowerShellFileStatically(path));
  }
  return result;
}
