// Runs the real `tooldesk` CLI (electron/cli/bin.mjs), or another command, as a child process
// with its own TOOLDESK_HOME, stdin given whole, and collects what it printed.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpHome } from './chat-harness.ts';
import { realPython } from './real-python.ts';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repoRoot, 'electron/cli/bin.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args…` in the repository with TOOLDESK_HOME=home (and a test-only keychain service). */
export function runCommand(home: string, command: string[], input = '', env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: repoRoot,
      env: { ...process.env, TOOLDESK_HOME: home, TOOLDESK_SECRET_SERVICE: `TooldeskTest-${process.pid}`, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a command that exits without reading its input
    child.stdin.end(input);
  });
}

/** Runs `tooldesk args…` (electron/cli/bin.mjs on this Node). */
export function runCli(home: string, args: string[], input = '', env: Record<string, string> = {}): Promise<CliResult> {
  return runCommand(home, [process.execPath, bin, ...args], input, env);
}

/** A fresh home with the weather fixture's tools (compare asks before it runs), their group on and Python set. */
export function weatherHome(): string {
  const home = tmpHome();
  mkdirSync(join(home, 'tools'), { recursive: true });
  copyFileSync(join(repoRoot, 'test/fixtures/tools/py-google-weather/weather.py'), join(home, 'tools/weather.py'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: realPython(), groupDefaults: { weather: true } }));
  return home;
}

/**
 * A fresh folder inside the checkout (its git-ignored .cache/) for a server that imports the
 * checkout's node_modules by path: a sandboxed server sees a folder under /tmp only when its
 * command line names it, so from a checkout under /tmp a folder elsewhere (/var/tmp) would leave
 * those imports unresolved. Inside the checkout it is read-only to servers, as node_modules is.
 */
export function scratchInCheckout(prefix: string): string {
  const cache = join(repoRoot, '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, prefix));
  scratchDirs.push(dir);
  return dir;
}

const scratchDirs: string[] = [];

/** Removes the folders scratchInCheckout made in this test file (its afterAll). */
export function removeScratch(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
