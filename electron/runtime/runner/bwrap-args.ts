// The bubblewrap command line for one tool run. Pure: every path decision is made by the caller
// (sandbox.ts), so the argument order — which is what makes it correct — is tested on its own.

export interface BwrapPlan {
  /** Working directory inside the sandbox (visible: it is the tool or working folder, or /). */
  cwd: string;
  /** Bound read-only before the writable folders (a working folder under the private /tmp), so those inside it stay writable. */
  readOnlyFirst?: string[];
  /** Bound writable, in this order: the home when allowed, a writable tool folder, the working folder, more writable folders. */
  writable: string[];
  /** Folders inside a writable one bound onto themselves, so they cannot be renamed away. */
  pinned?: string[];
  /** Missing protected folders covered by an empty read-only tmpfs, so no tool can create them. */
  guarded?: string[];
  /**
   * Bound read-only after every writable bind, whatever the nesting: the tool folder (always: it
   * may sit under the private /tmp), tool roots, TOOLDESK_HOME, the other projects' tool folders.
   */
  readOnly: string[];
  /** Bound read-only again after the private /tmp (paths the command needs that live under it). */
  readOnlyPaths?: string[];
  network: boolean;
  /** Existing folders to cover with an empty read-only tmpfs. */
  hideDirs: string[];
  /** Existing files (or sockets) to cover with /dev/null. */
  hideFiles: string[];
  /** Environment variables to remove (agent sockets and the like). */
  unsetEnv: string[];
  /**
   * Capabilities kept after `--cap-drop ALL` (the warm fork-server as root: it lifts bwrap's
   * covers of /proc with them, then drops every capability before anything else runs).
   */
  keepCaps?: string[];
}

/**
 * Arguments for `bwrap`, up to and including `--`; append the command and its arguments.
 * Order matters, since a later bind covers an earlier one: the whole root read-only, the private
 * /tmp, the writable folders (which may live under /tmp or the home), the pins and guards, then
 * the protected folders read-only (so no writable bind can uncover them), then the masks last.
 */
export function buildBwrapArgs(plan: BwrapPlan): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const path of plan.readOnlyFirst ?? []) args.push('--ro-bind', path, path);
  for (const path of plan.writable) args.push('--bind', path, path);
  for (const path of plan.pinned ?? []) args.push('--bind', path, path);
  for (const path of plan.guarded ?? []) args.push('--tmpfs', path, '--remount-ro', path);
  for (const path of plan.readOnly) args.push('--ro-bind', path, path);
  for (const path of plan.readOnlyPaths ?? []) args.push('--ro-bind', path, path);
  for (const dir of plan.hideDirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const file of plan.hideFiles) args.push('--ro-bind', '/dev/null', file);
  for (const name of plan.unsetEnv) args.push('--unsetenv', name);
  args.push('--unshare-all');
  if (plan.network) args.push('--share-net');
  // --cap-drop ALL matters when the app runs as root: bwrap keeps root's capabilities otherwise,
  // and CAP_SYS_ADMIN could unmount the masks. No --new-session: the sandbox stays in the run's
  // process group, so killing the group kills bwrap's inner process (the PID namespace's init,
  // and with it everything in the namespace) at any moment. --die-with-parent alone misses an
  // outer bwrap killed before its child set it up (about 1 in 12 kills in bwrap's first ~12 ms
  // here). Runs are started in a new session of their own (detached), with no controlling
  // terminal, so the terminal injection --new-session guards against has no terminal to reach.
  args.push('--die-with-parent', '--cap-drop', 'ALL');
  for (const cap of plan.keepCaps ?? []) args.push('--cap-add', cap);
  args.push('--chdir', plan.cwd, '--');
  return args;
}
