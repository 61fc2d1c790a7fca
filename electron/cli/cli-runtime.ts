// Opens the runtime for a CLI command (TOOLDESK_HOME, the secret store options of the
// environment) and prints its start-up warnings on stderr. Commands ask only for what they use:
// `tools: false` when no tool is needed; tools load on first `runtime.tools()`.
import { createRuntime, type Runtime, type RuntimeOptions, type RuntimeToolOptions } from '../runtime/create-runtime.ts';
import { toolDeskHome } from '../runtime/paths.ts';
import { openCliSecrets } from './cli-settings.ts';
import type { CliIO } from './command.ts';
import { options, type ParsedArgs } from './parse-args.ts';

export interface CliRuntimeOptions extends Omit<RuntimeOptions, 'home' | 'tools'> {
  /** The tool options; `--root DIR` (repeatable) from `args` replaces the settings' roots. */
  tools?: (RuntimeToolOptions & { args?: ParsedArgs }) | false;
}

export async function openCliRuntime(io: CliIO, cli: CliRuntimeOptions = {}): Promise<Runtime> {
  const { tools, ...rest } = cli;
  let toolOptions: RuntimeToolOptions | false = false;
  if (tools !== false && tools !== undefined) {
    const { args, ...given } = tools;
    const roots = args ? options(args, 'root') : [];
    // The CLI works on the folder it runs in: relative roots and project roots are found from there.
    toolOptions = { cwd: process.cwd(), ...given, ...(roots.length ? { roots } : {}) };
  }
  const runtime = await createRuntime({ home: toolDeskHome(io.env), secrets: openCliSecrets(io), tools: toolOptions, ...rest });
  for (const warning of runtime.warnings) io.stderr.write(`tooldesk: warning: ${warning}\n`);
  return runtime;
}

/** Runs `work` on a runtime opened without tools (settings, secrets) and closes it after. */
export async function withCliRuntime(io: CliIO, work: (runtime: Runtime) => Promise<number>): Promise<number> {
  const runtime = await openCliRuntime(io, { tools: false });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}
