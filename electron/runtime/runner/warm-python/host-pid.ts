// A process inside the sandbox knows only its pid in the sandbox's pid namespace; the app needs
// the same process's pid on this machine to bound and kill its group. /proc here maps one to the
// other: each process's `NSpid:` line lists its pid in every namespace, outermost first.
import { readFileSync } from 'node:fs';

/** The pids of `pid`'s children (zombies included). Never throws. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The innermost pid of `pid` (its pid as seen inside its own namespace). */
export function innermostPid(pid: number): number | undefined {
  try {
    const line = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    const last = line?.trim().split(/\s+/).at(-1);
    return last ? Number(last) : undefined;
  } catch {
    return undefined;
  }
}

/** The child of `parent` whose innermost pid is `inner` (newest children first), or undefined. */
export function childWithInnerPid(parent: number, inner: number): number | undefined {
  const children = childPids(parent);
  for (let i = children.length - 1; i >= 0; i--) {
    if (innermostPid(children[i]!) === inner) return children[i];
  }
  return undefined;
}

/** The descendant of `root` (or root itself) whose innermost pid is `inner`, breadth first. */
export function descendantWithInnerPid(root: number, inner: number, maxDepth = 6): number | undefined {
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    for (const pid of level) if (innermostPid(pid) === inner) return pid;
    level = level.flatMap(childPids);
  }
  return undefined;
}
