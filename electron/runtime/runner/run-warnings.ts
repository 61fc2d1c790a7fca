// What a run's outcome tells the user beside the tool's own result: every format adds these to
// the tool result's warnings.
import type { RunResult } from './types.ts';
import type { PreparedCommand } from './sandbox.ts';

/** The sandbox note (why it ran unsandboxed) and the sandbox's warnings, in that order. */
export function runWarnings(run: Pick<RunResult, 'sandboxNote' | 'warnings'>): string[] {
  return [...(run.sandboxNote ? [run.sandboxNote] : []), ...(run.warnings ?? [])];
}

/** What a tool run reports of its sandbox: the warnings, then where the secret-file search stopped. */
export function toolWarnings(prepared: Pick<PreparedCommand, 'warnings' | 'secretScanNotes'>): string[] {
  return [...(prepared.warnings ?? []), ...(prepared.secretScanNotes ?? [])];
}
