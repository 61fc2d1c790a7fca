// Which sandbox this machine can actually use. Checked once per process: a binary on PATH is
// not enough (user namespaces may be off, or a container may forbid them), so bwrap gets a
// trial run.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SandboxKind } from '../../../shared/sandbox.ts';

export interface SandboxDetection {
  kind: SandboxKind;
  available: boolean;
  /** Absolute path of bwrap / sandbox-exec when found. */
  binary?: string;
  /** `prlimit` (util-linux), used for the process-count and memory bounds on Linux. */
  prlimit?: string;
  /** One sentence: what runs here, or why nothing does. */
  detail: string;
}

let cached: SandboxDetection | undefined;

export function detectSandbox(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): SandboxDetection {
  if (cached && platform === process.platform) return cached;
  const result = probe(platform, env);
  if (platform === process.platform) cached = result;
  return result;
}

/** Finds an executable on PATH (POSIX only; Windows has no sandbox to find). */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

function probe(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): SandboxDetection {
  if (platform === 'win32') {
    return { kind: 'none', available: false, detail: 'Windows has no tool sandbox: tools run with your full user rights.' };
  }
  if (platform === 'darwin') {
    const binary = '/usr/bin/sandbox-exec';
    try {
      accessSync(binary, constants.X_OK);
      return { kind: 'sandbox-exec', available: true, binary, detail: 'macOS sandbox-exec: read-only filesystem except the working folder (tool folders, tool roots and TOOLDESK_HOME stay read-only), credentials hidden.' };
    } catch {
      return { kind: 'none', available: false, detail: 'sandbox-exec was not found in /usr/bin.' };
    }
  }
  if (platform !== 'linux') return { kind: 'none', available: false, detail: `No tool sandbox on ${platform}.` };
  const prlimit = findOnPath('prlimit', env);
  const binary = findOnPath('bwrap', env);
  if (!binary) {
    return { kind: 'none', available: false, prlimit, detail: 'bubblewrap (bwrap) is not installed: install it (apt install bubblewrap, dnf install bubblewrap) to sandbox tools.' };
  }
  const trial = spawnSync(binary, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-all', '--die-with-parent', '--cap-drop', 'ALL', '--', 'true'], {
    encoding: 'utf8',
    timeout: 5000,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (trial.status !== 0) {
    const why = (trial.stderr || trial.error?.message || `exit ${trial.status}`).trim().split('\n')[0];
    return {
      kind: 'bwrap',
      available: false,
      binary,
      prlimit,
      detail: `bubblewrap is installed but cannot create a sandbox here (${why}); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, or an AppArmor rule for bwrap).`,
    };
  }
  return { kind: 'bwrap', available: true, binary, prlimit, detail: 'bubblewrap: read-only filesystem except the working folder (tool folders, tool roots and TOOLDESK_HOME stay read-only), private /tmp, credentials hidden.' };
}
