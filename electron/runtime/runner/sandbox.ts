// One sandbox layer for every script-based tool process: bubblewrap on Linux, sandbox-exec on
// macOS, none on Windows (said plainly). Also applies the process-count and memory bounds.
import { existsSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, isAbsolute } from 'node:path';
import { buildBwrapArgs } from './bwrap-args.ts';
import { buildMacosProfile } from './macos-profile.ts';
import { createPidsCgroup } from './pids-cgroup.ts';
import { isInside, planProtectedBinds, type ProtectedPath } from './protected-binds.ts';
import { nprocLimit, prlimitPrefix, type ResourceLimits } from './resource-limits.ts';
import { detectSandbox, type SandboxDetection } from './sandbox-detect.ts';
import { computeMask, type MaskLayout, type SandboxMask } from './sandbox-mask.ts';
import { SENSITIVE_HOME_ENTRIES } from './sensitive-paths.ts';
import type { RunSpec, SandboxSpec } from './types.ts';

export { sandboxStatus } from './sandbox-status.ts';

export interface PreparedCommand {
  command: string;
  args: string[];
  sandboxed: boolean;
  /** Why it is not sandboxed (auto mode), or why it must not run (required mode). */
  note?: string;
  /** Set in `required` mode when no sandbox is available: the runner must refuse. */
  refuse?: boolean;
  /** Environment variables the sandbox needs added (macOS: TMPDIR). */
  env?: Record<string, string>;
  /** The bounds applied, so the runner can explain a failure (see explainLimitFailure). */
  limits?: ResourceLimits;
  /**
   * Set on Linux when a process-count bound applies: the runner starts watchProcessTree(pid, …)
   * on the spawned process and kills the run when it fires (RLIMIT_NPROC alone does not bind root).
   */
  watch?: { maxProcesses: number; pidsEventsFile?: string; userLimit?: { uid: number; tasks: number } };
  /** What bubblewrap hides (Linux): a long-lived helper compares it with currentMask per call. */
  mask?: Pick<SandboxMask, 'dirs' | 'files'>;
  /** The runner calls this once the run is over (removes a per-run cgroup). */
  cleanup?: () => void;
  /** Things the user should know that do not stop the run (a folder that is missing or stays read-only). */
  warnings?: string[];
  /**
   * Where the search for secret files was cut short. Kept apart from `warnings`: a tool's result
   * reports both, a long-lived server's sandbox note carries these (not the server's own log).
   */
  secretScanNotes?: string[];
}

/** Variables that hand a process the user's agents (ssh, gpg, keyring, session bus). */
const AGENT_ENV = ['SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO', 'DBUS_SESSION_BUS_ADDRESS', 'GNOME_KEYRING_CONTROL', 'KRB5CCNAME'];

/** Wraps `spec.command` in the platform's sandbox according to `spec.sandbox`. Never throws. */
export function prepareSandboxedCommand(spec: RunSpec, detection: SandboxDetection = detectSandbox(), platform: NodeJS.Platform = process.platform): PreparedCommand {
  const box = spec.sandbox;
  const limits: ResourceLimits = { maxProcesses: box?.maxProcesses, maxMemoryBytes: box?.maxMemoryBytes };
  const bounds = platform === 'linux' ? linuxBounds(detection, limits) : { prefix: [] as string[] };
  // Outermost: joining the per-run cgroup (root only), so everything the run starts is counted.
  const outer = (prepared: PreparedCommand): PreparedCommand => {
    if (prepared.refuse || !bounds.cgroup) return prepared;
    const [command, ...args] = [...bounds.cgroup.prefix, prepared.command, ...prepared.args];
    return { ...prepared, command: command!, args, cleanup: bounds.cgroup.dispose };
  };
  const plain = (extra: Partial<PreparedCommand>): PreparedCommand => {
    const [command, ...args] = [...bounds.prefix, spec.command, ...spec.args];
    return outer({ command: command!, args, sandboxed: false, limits, ...(bounds.watch ? { watch: bounds.watch } : {}), ...extra });
  };
  if (!box || box.mode === 'off') return plain({});
  if (!detection.available) {
    if (box.mode === 'required') {
      bounds.cgroup?.dispose();
      return plain({ refuse: true, note: `Refused to run: the sandbox is required (Settings → Sandbox) but unavailable. ${detection.detail}` });
    }
    return plain({ note: `Not sandboxed: ${detection.detail}` });
  }
  try {
    if (detection.kind === 'bwrap') {
      // Inside bwrap's user namespace the kernel counts RLIMIT_NPROC per namespace, not per user,
      // and the namespace's init adopts orphans: the tree count alone is exact there.
      const watch = bounds.watch && { maxProcesses: bounds.watch.maxProcesses, ...(bounds.watch.pidsEventsFile ? { pidsEventsFile: bounds.watch.pidsEventsFile } : {}) };
      return outer({ ...bwrapCommand(spec, box, detection.binary!, bounds.prefix), limits, ...(watch ? { watch } : {}) });
    }
    if (detection.kind === 'sandbox-exec') return { ...sandboxExecCommand(spec, box, detection.binary!), limits };
  } catch (error) {
    const why = `The sandbox could not be prepared: ${(error as Error).message}`;
    if (box.mode === 'required') {
      bounds.cgroup?.dispose();
      return plain({ refuse: true, note: `Refused to run: ${why}` });
    }
    return plain({ note: `Not sandboxed: ${why}` });
  }
  return plain({ note: `Not sandboxed: ${detection.detail}` });
}

function linuxBounds(detection: SandboxDetection, limits: ResourceLimits): { prefix: string[]; watch?: PreparedCommand['watch']; cgroup?: ReturnType<typeof createPidsCgroup> } {
  const uid = process.getuid?.() ?? -1;
  const nproc = detection.prlimit ? nprocLimit(limits, uid) : undefined;
  const prefix = prlimitPrefix(detection.prlimit, limits, uid, nproc);
  if (!limits.maxProcesses || limits.maxProcesses <= 0) return { prefix };
  // The bwrap monitor and the namespace's init count too: +2 beside the tool's own processes.
  const cgroup = createPidsCgroup(limits.maxProcesses + 2);
  const watch: NonNullable<PreparedCommand['watch']> = {
    maxProcesses: limits.maxProcesses,
    ...(cgroup ? { pidsEventsFile: `${cgroup.dir}/pids.events` } : {}),
    ...(nproc !== undefined ? { userLimit: { uid, tasks: nproc } } : {}),
  };
  return { prefix, watch, ...(cgroup ? { cgroup } : {}) };
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

interface Layout {
  toolDir: string;
  writableToolDir: boolean;
  workDir?: string;
  /** The extra writable folders that passed the checks (real paths). */
  writableDirs: string[];
  homeDir: string;
  allowHomeWrite: boolean;
  /** The working folder is the home or contains it (read-only then): its secret files are hidden too. */
  homeIsWorkingFolder: boolean;
  warnings: string[];
}

function layout(box: SandboxSpec): Layout {
  const homeDir = real(box.homeDir ?? process.env.HOME ?? homedir());
  const allowHomeWrite = box.allowHomeWrite === true;
  const warnings: string[] = [];
  let workDir = box.workDir ? real(box.workDir) : undefined;
  // The working folder defaults to the home; making it writable would silently turn on home
  // writes, which are off unless the user chose them.
  if (workDir && !existsSync(workDir)) {
    warnings.push(`The working folder ${workDir} does not exist; the tool runs without one.`);
    workDir = undefined;
  }
  const homeIsWorkingFolder = !!workDir && isInside(homeDir, workDir);
  if (workDir && !allowHomeWrite && isInside(homeDir, workDir)) {
    // The home itself is the default working folder: read-only there is the documented default,
    // not news worth repeating on every call. A folder above the home is a choice worth a word.
    if (workDir !== homeDir) {
      warnings.push(`The working folder ${workDir} contains your home, so it stays read-only in the sandbox (turn on "allow home writes" or pick another working folder).`);
    }
    workDir = undefined;
  }
  const writableDirs: string[] = [];
  for (const dir of box.writableDirs ?? []) {
    const path = real(dir);
    if (!isAbsolute(path) || !existsSync(path)) warnings.push(`The writable folder ${dir} does not exist, so the process cannot write there; create it first.`);
    else if (!allowHomeWrite && isInside(homeDir, path)) warnings.push(`The writable folder ${path} contains your home, so it stays read-only in the sandbox; name a folder inside it instead.`);
    else if (path !== workDir && !writableDirs.includes(path)) writableDirs.push(path);
  }
  return { toolDir: real(box.toolDir), writableToolDir: box.writableToolDir === true, workDir, writableDirs, homeDir, allowHomeWrite, homeIsWorkingFolder, warnings };
}

/** What the spec says no tool may write: the app's folders, every tool root, the tool's own folder. */
function protectedPaths(box: SandboxSpec, l: Layout): ProtectedPath[] {
  const p = box.protect;
  const list: ProtectedPath[] = l.writableToolDir || box.toolDirIsWorkingFolder ? [] : [{ path: l.toolDir, guardMissing: false }];
  if (!p) return list;
  list.push({ path: p.appHome, guardMissing: true }, { path: p.settingsFile, guardMissing: false });
  for (const root of p.toolRoots) list.push({ path: root, guardMissing: true });
  for (const folder of p.projectToolFolders) list.push({ path: folder, guardMissing: false });
  return list;
}

function bwrapCommand(spec: RunSpec, box: SandboxSpec, bwrap: string, boundsPrefix: string[]): PreparedCommand {
  const l = layout(box);
  const writable = writableOf(l);
  // Every protected path is bound read-only after all of these, whatever their nesting.
  const binds = planProtectedBinds(writable, protectedPaths(box, l));
  for (const d of binds.demoted) {
    if (d.writable === l.workDir) l.warnings.push(`The working folder ${d.writable} is inside the protected folder ${d.inside} (a tool folder, tool root or Tooldesk's own folder), so it stays read-only in the sandbox; pick a working folder outside it.`);
    else if (l.writableDirs.includes(d.writable)) l.warnings.push(`The writable folder ${d.writable} is inside the protected folder ${d.inside} (a tool folder, tool root or Tooldesk's own folder), so it stays read-only in the sandbox.`);
  }
  const bound = [l.toolDir, ...writable];
  const visible = (p: string) => bound.some((b) => isInside(p, b)) || !isInside(p, '/tmp');
  const mask = computeMask(maskLayout(box, l, writable));
  const cwd = real(spec.cwd);
  // What the command line needs to read must survive the private /tmp (e.g. a checkout under /tmp).
  const needed = [...(box.readOnlyPaths ?? []), ...(isAbsolute(spec.command) ? [spec.command] : [])];
  const readOnlyPaths = [...new Set(needed.filter((p) => existsSync(p)).map(real))].filter((p) => !visible(p));
  // One that holds a writable folder (a server under /tmp allowed to write inside its package) is
  // bound before the writable folders, or it would cover them read-only again.
  const holdsWritable = (p: string) => writable.some((w) => isInside(w, p));
  const readOnly = [...binds.readOnly];
  // The tool folder is always bound: it may sit under the private /tmp. A working folder is bound
  // before the writable folders, so that those inside it stay writable.
  const first = [...(box.toolDirIsWorkingFolder && !l.writableToolDir ? [l.toolDir] : []), ...readOnlyPaths.filter(holdsWritable)];
  if (!l.writableToolDir && !box.toolDirIsWorkingFolder && !readOnly.some((r) => isInside(l.toolDir, r))) readOnly.unshift(l.toolDir);
  const args = buildBwrapArgs({
    readOnlyFirst: first,
    cwd: visible(cwd) && existsSync(cwd) ? cwd : l.toolDir,
    writable,
    pinned: binds.pinned,
    guarded: binds.guarded,
    readOnly,
    readOnlyPaths: readOnlyPaths.filter((p) => !holdsWritable(p)),
    network: box.network,
    hideDirs: mask.dirs,
    hideFiles: mask.files,
    unsetEnv: AGENT_ENV,
    // As root bwrap covers parts of its /proc, and the kernel then refuses a helper's per-call
    // /proc (mount_too_revealing): the helper lifts the covers first, then drops these.
    ...(box.mountsPerCall && process.getuid?.() === 0 ? { keepCaps: ['CAP_SYS_ADMIN', 'CAP_SETPCAP'] } : {}),
  });
  const { secretScanNotes } = mask;
  return {
    command: bwrap,
    args: [...args, ...boundsPrefix, spec.command, ...spec.args],
    sandboxed: true,
    mask: { dirs: mask.dirs, files: mask.files },
    ...(l.warnings.length ? { warnings: l.warnings } : {}),
    ...(secretScanNotes.length ? { secretScanNotes } : {}),
  };
}

/** The writable binds, in bwrap's order: the home when allowed, a writable tool folder, the working folder, the others. */
function writableOf(l: Layout): string[] {
  return [...(l.allowHomeWrite ? [l.homeDir] : []), ...(l.writableToolDir ? [l.toolDir] : []), ...(l.workDir ? [l.workDir] : []), ...l.writableDirs];
}

function maskLayout(box: SandboxSpec, l: Layout, writable: string[]): MaskLayout {
  return {
    homeDir: l.homeDir,
    toolDir: l.toolDir,
    writable,
    allowHomeWrite: l.allowHomeWrite,
    homeIsWorkingFolder: l.homeIsWorkingFolder,
    ...(box.hidePaths ? { hidePaths: box.hidePaths } : {}),
    ...(box.protect ? { sessionsDir: box.protect.sessionsDir } : {}),
  };
}

/**
 * The mask `box` gets from bubblewrap as the disk is now (what prepareSandboxedCommand would
 * hide): a long-lived helper compares it with its own per call. Never throws.
 */
export function currentMask(box: SandboxSpec): Pick<SandboxMask, 'dirs' | 'files'> {
  const l = layout(box);
  const writable = writableOf(l);
  const { dirs, files } = computeMask(maskLayout(box, l, writable));
  return { dirs, files };
}

function sandboxExecCommand(spec: RunSpec, box: SandboxSpec, sandboxExec: string): PreparedCommand {
  const l = layout(box);
  const tmpDir = real(tmpdir());
  const profile = buildMacosProfile({
    toolDir: l.toolDir,
    writableToolDir: l.writableToolDir,
    workDir: l.workDir,
    writableDirs: l.writableDirs,
    homeDir: l.homeDir,
    allowHomeWrite: l.allowHomeWrite,
    tmpDir,
    network: box.network,
    hidePaths: [...SENSITIVE_HOME_ENTRIES, ...(box.hidePaths ?? [])].map((rel) => join(l.homeDir, rel)),
    patternRoots: [l.toolDir, ...(l.workDir ? [l.workDir] : []), ...l.writableDirs, ...(l.allowHomeWrite ? [l.homeDir] : [])],
    protectedPaths: protectedPaths(box, l).map((p) => real(p.path)),
    ...(box.protect ? { hideAbsolute: [real(box.protect.sessionsDir)] } : {}),
  });
  return { command: sandboxExec, args: ['-p', profile, spec.command, ...spec.args], sandboxed: true, env: { TMPDIR: tmpDir }, ...(l.warnings.length ? { warnings: l.warnings } : {}) };
}
