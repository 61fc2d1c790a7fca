// Process groups this app started and that still run: killed if the app exits normally first
// (detached children outlive us otherwise; the sandbox's die-with-parent and the managed
// processes' lifeline cover the abnormal exits).
import { signalProcessGroup } from './kill-process-group.ts';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) signalProcessGroup(group, 'SIGKILL');
    });
  }
  liveGroups.add(pid);
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}
