// The arguments' way into a call, before any decision: `$VAR_REF` resolution → the executor's
// `limit` argument → schema validation, with the messages the model gets. Split from
// tool-executor.ts; execute() and checkArgs() (the approval card's live check) share it.
import { resolveVarRefs, type VarRefSource } from '../variables/resolve-var-refs.ts';
import { takeLimitArg } from './take-limit-arg.ts';
import type { RegisteredTool } from '../tool-catalog.ts';
import { ArgsValidator } from './validate-args.ts';

type Args = Record<string, unknown>;

/**
 * Compiled validators are cached per schema object; tools are shared by every session's
 * executor, so one cache spares each new session from recompiling (~5-20 ms per schema).
 */
const sharedValidator = new ArgsValidator();

export interface PrepareOptions {
  variables: VarRefSource;
  /** Bound on what `$VAR_REF` expansion may produce, characters. */
  maxExpandedChars: number | undefined;
  /** The executor's default truncation limit, characters. */
  truncateChars: number;
}

export type PreparedArgs =
  | { ok: true; args: Args; limit: number; warnings: string[]; /** The arguments used a `$VAR_REF`. */ usedRefs: boolean }
  | { ok: false; message: string };

export function prepareArgs(entry: RegisteredTool, parsed: Args, options: PrepareOptions): PreparedArgs {
  const resolved = resolveVarRefs(parsed, options.variables, { maxExpandedChars: options.maxExpandedChars });
  if (!resolved.ok) return { ok: false, message: resolved.error };
  const schema = entry.tool.definition.function.parameters;
  const { args, limit: limitArg, warning } = takeLimitArg(resolved.value, schema);
  const limit = limitArg ?? entry.tool.DEFAULT_OUTPUT_LIMIT_CHAR ?? options.truncateChars;
  const warnings: string[] = warning ? [warning] : [];
  const validation = sharedValidator.validate(entry.modelName, schema, args);
  if (!validation.ok) return { ok: false, message: validation.message };
  if (validation.warning) warnings.push(validation.warning);
  return { ok: true, args, limit, warnings, usedRefs: resolved.refs.length > 0 };
}
