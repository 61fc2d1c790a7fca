// Runs the real `tooldesk` CLI (electron/cli/bin.mjs) as a child process with its own
// TOOLDESK_HOME, stdin given whole, and collects what it printed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repoRoot, 'electron/cli/bin.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(home: string, args: string[], input = '', env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
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
    child.stdin.end(input);
  });
}
