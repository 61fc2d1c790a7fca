// Whether a module tool host's sandbox still hides what it must (issue 32 §12). Its mask (the
// credential folders, `.env` and key files it covers) is fixed when the host starts; a secret
// file that appeared since would be readable by every later call of that long-lived process. So
// the mask is computed again for each call (the secret-file scans are cached by folder mtime, so
// this costs a few stat calls) and a host that does not cover all of it is replaced.
import { currentMask } from '../../runner/sandbox.ts';
import { maskAdditions } from '../../runner/sandbox-mask.ts';
import type { SandboxSpec } from '../../runner/types.ts';
import type { Incarnation } from './host-incarnation.ts';

/** True when `sandbox` now hides something the running host's sandbox does not. Never throws. */
export function hostMaskIsStale(inc: Incarnation, sandbox: SandboxSpec): boolean {
  if (!inc.process.mask) return false;
  const added = maskAdditions(inc.process.mask, currentMask(sandbox));
  return added.dirs.length > 0 || added.files.length > 0;
}

/** Marks `inc` as replaced: it stops once its open requests answered (tool-host.ts's idle). */
export function retireHost(inc: Incarnation, retiring: Set<Incarnation>): void {
  inc.retiring = true;
  inc.exitNote ||= 'the module tool host was replaced: a secret file appeared that its sandbox did not hide';
  retiring.add(inc);
  void inc.process.exited.then(() => retiring.delete(inc));
}
