// One run of a skill's script or of a short Python program for a skill: the interpreter named by
// the script's extension (Python from the skill's own environment when it has one), in the chat's
// working folder, under the sandbox every tool call gets: the skill's folder read-only, network
// off unless the user granted it for this skill, secrets none. Python runs carry a warm hint: the
// warm runner serves them from the skill's fork-server, its dependencies preloaded. Never throws.
import { extname, join } from 'node:path';
import { pythonPreloadSet } from '../../runner/warm-python/preload-set.ts';
import { nodeCommand } from '../process/sandbox-spec-for.ts';
// No skill imports from a folder tools can write (issue 32 §8): see python-flags.ts.
import { PYTHON_SCRIPT_FLAGS, PYTHON_STDIN_FLAGS } from '../process/python-flags.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import { runToolProcess, stderrTail, type ProcessSpec } from '../process/run-tool-process.ts';
import type { ToolContext, ToolRunResult } from '../../tools/types.ts';
import type { SourceContext } from '../types.ts';
import { skillEnvPython } from './skill-env.ts';
import type { Skill } from './skill-types.ts';

export interface SkillRun {
  skill: Skill;
  /** The registered tool name (its per-tool sandbox mode). */
  toolName: string;
  /** `script`: an absolute path inside the skill; `code`: a Python program given on stdin. */
  what: { script: string; args: string[]; stdin?: string } | { code: string };
  network: boolean;
}

export const SCRIPT_EXTENSIONS = ['.py', '.js', '.mjs', '.sh'];

export async function runSkillProcess(ctx: SourceContext, call: ToolContext, run: SkillRun): Promise<ToolRunResult> {
  const { skill } = run;
  const python = async () => skillEnvPython(ctx.home, skill.id) ?? (await resolvePythonCommand(ctx.pythonPath, ctx.runner));
  let spec: ProcessSpec;
  const env = { ...ctx.env, PYTHONDONTWRITEBYTECODE: '1', TOOLDESK_SKILL: skill.id, TOOLDESK_SKILL_DIR: skill.dir };
  // One warm fork-server per skill (and grant): every Python run of the skill names the same
  // preload set, its scripts' top-level imports (only what resolves outside every folder a call
  // can write — the interpreter's or the skill's own environment — is ever preloaded).
  const preload = skillPreloadSet(skill);
  if ('code' in run.what) {
    const { code } = run.what;
    spec = { command: await python(), args: [...PYTHON_STDIN_FLAGS, '-'], cwd: ctx.workingDir, stdin: code, env, python: { kind: 'code', code, preload } };
  } else {
    const { script, args, stdin } = run.what;
    const ext = extname(script).toLowerCase();
    const extra = stdin !== undefined ? { stdin } : {};
    if (ext === '.py') spec = { command: await python(), args: [...PYTHON_SCRIPT_FLAGS, '-u', '-B', script, ...args], cwd: ctx.workingDir, env, ...extra, python: { kind: 'script', file: script, args, preload } };
    else if (ext === '.js' || ext === '.mjs') {
      const node = nodeCommand();
      spec = { command: node.command, args: [script, ...args], cwd: ctx.workingDir, env: { ...env, ...node.env }, ...extra };
    } else if (ext === '.sh') spec = { command: '/bin/sh', args: [script, ...args], cwd: ctx.workingDir, env, ...extra };
    else return { status: 'ERROR', error: `Scripts run by their extension (${SCRIPT_EXTENSIONS.join(', ')}); "${script}" has none of them.` };
  }
  const label = 'code' in run.what ? `Python for skill ${skill.id}` : `${skill.id}'s script`;
  return runToolProcess(ctx, call, {
    spec,
    toolName: run.toolName,
    toolDir: skill.dir,
    network: run.network,
    timeoutMs: ctx.toolTimeoutMs,
    logs: (r) => r.stderr.trim(),
    read: (r, base) => readRun(r.exitCode, r.stdout, r.stderr, base, skill, run.network),
    notStarted: (why) => `${label} could not start: ${why}`,
    aborted: `${label} was stopped.`,
    timedOut: (ms) => `${label} did not finish within ${Math.round(ms / 1000)} s (settings: limits.toolTimeoutMs).`,
  });
}

/** The skill's Python files (as listed when it was read), the preload set of all its Python runs. */
export function skillPreloadSet(skill: Skill): string[] {
  return pythonPreloadSet(skill.files.filter((f) => f.endsWith('.py')).map((f) => join(skill.dir, f)));
}

function readRun(exitCode: number | null, stdout: string, stderr: string, base: Pick<ToolRunResult, 'logs' | 'warnings'>, skill: Skill, network: boolean): ToolRunResult {
  if (exitCode === 0) return { ...base, status: 'SUCCESS', data: stdout, formattedText: stdout.trim() === '' ? '(no output)' : stdout };
  const missing = /ModuleNotFoundError: No module named '([^'.]+)/.exec(stderr)?.[1];
  if (missing) {
    return {
      ...base,
      status: 'ERROR',
      error:
        `The script needs the Python module "${missing}", which is not installed for skill ${skill.id}. ` +
        `The user can add it with \`tooldesk skills deps ${skill.id} --add ${missing}\` (the pip package name may differ), or in Settings → Skills.`,
    };
  }
  const offline = !network && /(Network is unreachable|Temporary failure in name resolution|Name or service not known|Connection refused|ENETUNREACH|EAI_AGAIN)/.test(stderr);
  const tail = stderrTail(stderr) || stdout.trim().split('\n').slice(-5).join('\n');
  return {
    ...base,
    status: 'ERROR',
    error: `The script exited with status ${exitCode}${tail ? `:\n${tail}` : '.'}${offline ? `\n(Network is off for skill ${skill.id}; the user can grant it in Settings → Skills.)` : ''}`,
  };
}
