// What a module's `exec()` does, on the app's side: the host asks (inside a call, see
// exec-binding.ts), the app's runner runs the command sandboxed as that module's tool
// (sandbox.perTool by its group name), with only the secrets the called tool declared. The
// request comes from user code, so every field is checked.
import { runWarnings } from '../../runner/run-warnings.ts';
import { sandboxSpecFor } from '../process/sandbox-spec-for.ts';
import type { SourceContext } from '../types.ts';
import type { ExecReply, ExecRequest } from './host-protocol.ts';
import type { LoadRecord } from './load-record.ts';

/** Never throws; a refused or failed start is code 127 with the reason in stderr. */
export async function runModuleExec(ctx: SourceContext, record: LoadRecord, allowed: ReadonlySet<string>, request: ExecRequest, signal: AbortSignal): Promise<ExecReply> {
  const refuse = (why: string): ExecReply => ({ stdout: '', stderr: why, code: 127, killed: false, warnings: [] });
  if (typeof request !== 'object' || request === null || typeof request.command !== 'string' || !Array.isArray(request.args) || !request.args.every((a) => typeof a === 'string')) {
    return refuse('exec: a command (string) and its arguments (strings) are needed');
  }
  const secrets = Array.isArray(request.secrets) ? request.secrets.filter((s): s is string => typeof s === 'string') : [];
  const undeclared = secrets.filter((name) => !allowed.has(name));
  if (undeclared.length > 0) return refuse(`exec: the secrets ${undeclared.join(', ')} were not declared by the tool this call runs`);
  const run = await ctx.runner({
    command: request.command,
    args: request.args,
    cwd: typeof request.cwd === 'string' ? request.cwd : ctx.workingDir,
    env: ctx.env,
    timeoutMs: typeof request.timeoutMs === 'number' && request.timeoutMs > 0 ? request.timeoutMs : ctx.toolTimeoutMs,
    signal,
    maxOutputBytes: ctx.outputCapBytes,
    ...(secrets.length > 0 ? { secrets } : {}),
    sandbox: sandboxSpecFor(ctx, record.label, record.toolDir),
  });
  const warnings = runWarnings(run);
  if (run.spawnError) return { stdout: run.stdout, stderr: run.stderr || run.spawnError, code: 127, killed: false, warnings };
  const killed = run.timedOut || run.aborted;
  return { stdout: run.stdout, stderr: run.stderr, code: run.exitCode ?? (killed ? 137 : 1), killed, warnings };
}
