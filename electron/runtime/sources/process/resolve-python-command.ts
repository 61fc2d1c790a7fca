// Resolves the configured Python once to the real interpreter behind it (a pyenv shim costs
// ~50 ms per start; `sys.executable` points past it).
import type { Runner } from '../../runner/types.ts';

const resolved = new Map<string, Promise<string>>();

export function defaultPythonCommand(): string {
  return process.platform === 'win32' ? 'python' : 'python3';
}

/** Contract: never throws; falls back to the configured command when it cannot ask it. */
export function resolvePythonCommand(pythonPath: string | null, runner: Runner): Promise<string> {
  const configured = pythonPath ?? defaultPythonCommand();
  let pending = resolved.get(configured);
  if (!pending) {
    pending = runner({
      command: configured,
      args: ['-c', 'import sys; print(sys.executable)'],
      cwd: process.cwd(),
      timeoutMs: 15_000,
    }).then((run) => {
      const path = run.stdout.trim();
      if (run.exitCode === 0 && path) return path;
      resolved.delete(configured);
      return configured;
    });
    resolved.set(configured, pending);
  }
  return pending;
}
