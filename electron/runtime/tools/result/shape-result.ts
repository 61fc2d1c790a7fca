// What the executor does with a tool's output: format → truncate → cache the full text and the
// arguments as variables → the hint for reading the rest; and the same bound on an error's text.
// Split from tool-executor.ts; the executor calls these after a run.
import type { ToolErrorResult, ToolRejectedResult, ToolSuccessResult } from '../../../../shared/tools.ts';
import type { ToolCallInspection } from '../../../../shared/tool-inspection.ts';
import { formatOutput, NO_OUTPUT_TEXT, truncateOutput, truncationHint } from './format-output.ts';
import { withOwnApp } from '../own-tool-app.ts';
import type { RunOutcome } from '../run-tool.ts';
import { timeoutMessageOf } from './timeout-message.ts';
import type { RegisteredTool } from '../tool-catalog.ts';
import type { ToolRunResult } from '../types.ts';
import type { VariableSystem } from '../variables/variable-system.ts';
import { VARS_GROUP } from '../variables/vars-tools.ts';

type Args = Record<string, unknown>;

/** format → truncate → cache → hint, for a successful run. */
export function shapeSuccess(
  variables: VariableSystem,
  entry: RegisteredTool,
  args: Args,
  callId: string,
  limit: number,
  given: ToolRunResult,
  warnings: string[],
): ToolSuccessResult {
  // A tool of another format may answer with an MCP App (own-tool-app.ts).
  const run = withOwnApp(given);
  const formatted = formatOutput(entry.tool, run, args);
  if (formatted.warning) warnings.push(formatted.warning);
  const cut = truncateOutput(entry.tool, formatted.text, args, limit);
  if (cut.warning) warnings.push(cut.warning);
  const result: ToolSuccessResult = {
    toolName: entry.name,
    status: 'SUCCESS',
    data: run.data,
    formattedText: formatted.text,
    finalText: formatted.text === '' ? NO_OUTPUT_TEXT : cut.text,
    isTruncated: cut.info.truncated,
    truncation: cut.info,
  };
  const images = Array.isArray(run.images) ? run.images.filter((i) => typeof i?.mimeType === 'string' && typeof i.data === 'string') : [];
  if (images.length) result.images = images.map((image) => ({ mimeType: image.mimeType, size: base64Bytes(image.data), data: image.data }));
  copyLogs(result, run);
  if (run.app && typeof run.app.uri === 'string') result.app = run.app.server ? { server: run.app.server, uri: run.app.uri } : { uri: run.app.uri };
  cacheResult(variables, entry, args, callId, formatted.text, result);
  if (cut.info.truncated) result.finalText += `\n\n${truncationHint(cut, result.cacheVarResult)}`;
  if (typeof run.structuredText === 'string' && result.cacheVarResult) cacheStructured(variables, entry, run.structuredText, result);
  return result;
}

/**
 * An error's text is bounded like a result's: a tool failing with a megabyte of stderr must not
 * flood the model's context. When it is cut, the whole text is cached so the model can read it.
 */
export function boundError(variables: VariableSystem, entry: RegisteredTool, args: Args, callId: string, limit: number, result: ToolErrorResult, warnings: string[]): ToolErrorResult {
  const text = result.finalText;
  const cut = truncateOutput(entry.tool, text, args, limit);
  if (!cut.info.truncated) return result;
  if (cut.warning) warnings.push(cut.warning);
  cacheResult(variables, entry, args, callId, text, result);
  result.finalText = `${cut.text}\n\n${truncationHint(cut, result.cacheVarResult)}`;
  result.isTruncated = true;
  result.truncation = cut.info;
  return result;
}

/** `{tool}_{callId}_result` (the full text) and `_args`, except for the vars tools themselves. */
function cacheResult(variables: VariableSystem, entry: RegisteredTool, args: Args, callId: string, text: string, result: ToolSuccessResult | ToolErrorResult): void {
  if (entry.groupName === VARS_GROUP || entry.tool.SKIP_CACHE_RESULT) return;
  // Braces or spaces in a provider's call id would make the name unreachable by $VAR_REF.
  const id = callId.replace(/[^A-Za-z0-9_-]/g, '_');
  const tags = [entry.modelName, entry.groupName];
  result.cacheVarResult = `${entry.modelName}_${id}_result`;
  result.cacheVarArgs = `${entry.modelName}_${id}_args`;
  variables.add(result.cacheVarResult, text, 'ToolCallResult', { tags });
  variables.add(result.cacheVarArgs, JSON.stringify(args), 'ToolCallArgs', { tags });
}

/** The data beside a summary text, as its own variable the model is told about. */
function cacheStructured(variables: VariableSystem, entry: RegisteredTool, text: string, result: ToolSuccessResult): void {
  const name = result.cacheVarResult!.replace(/_result$/, '_structured');
  variables.add(name, text, 'ToolCallResult', { tags: [entry.modelName, entry.groupName] });
  result.cacheVarStructured = name;
  result.finalText += `\n\n(Structured data, ${text.length} characters: ReadVar {"name": "${name}"}.)`;
}

/** A throw, a timeout, an abort, or an ERROR the tool reported itself. */
export function errorResult(entry: RegisteredTool, args: Args, outcome: RunOutcome): ToolErrorResult {
  if (outcome.kind === 'ok') {
    const { run } = outcome;
    const message = run.error || 'The tool reported an error without a message.';
    const detail = run.formattedText ?? (run.data !== undefined ? formatOutput(entry.tool, { data: run.data }, args).text : '');
    const result: ToolErrorResult = {
      toolName: entry.name,
      status: 'ERROR',
      error: message,
      data: run.data,
      finalText: detail ? `Error: ${message}\n${detail}` : `Error: ${message}`,
    };
    copyLogs(result, run);
    return result;
  }
  const message =
    outcome.kind === 'threw'
      ? outcome.message
      : outcome.kind === 'timeout'
        ? timeoutMessageOf(entry.tool, entry.modelName, outcome.timeoutMs)
        : `${entry.modelName} was aborted (${outcome.reason}).`;
  const result: ToolErrorResult = { toolName: entry.name, status: 'ERROR', error: message, finalText: `Error: ${message}` };
  // What the stopped tool printed up to then still helps the user see how far it got.
  if (outcome.kind !== 'threw' && outcome.stopped) copyLogs(result, outcome.stopped);
  return result;
}

/** Decoded size of base64 text (padding and whitespace not counted). */
function base64Bytes(data: string): number {
  const clean = data.replace(/[\s=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

function copyLogs(result: ToolSuccessResult | ToolErrorResult, run: ToolRunResult): void {
  if (run.logs) result.logs = run.logs;
  if (run.warnings?.length) result.warnings = [...run.warnings];
}

/** A rule denied the call: its reason reaches the model, with the advice not to retry. */
export function deniedByRule(entry: RegisteredTool, reason: string, inspection: ToolCallInspection): ToolRejectedResult {
  const finalText = `${reason} The user's rules do not allow this call; do not retry it. Ask the user if it is needed.`;
  return { toolName: entry.name, status: 'EXECUTION_REJECTED', rejectReason: reason, finalText, inspection };
}

/** The user said no on the approval card, or (`unasked`) nobody could be asked: then `reason` says why. */
export function notAllowed(entry: RegisteredTool, reason: string, inspection: ToolCallInspection, unasked = false): ToolRejectedResult {
  const theirs = reason.trim() ? ` Their reason: ${quotedReason(reason)}` : '';
  const why = reason.trim() ? ` ${reason.trim().charAt(0).toUpperCase()}${reason.trim().slice(1)}` : '';
  const finalText = unasked
    ? `${entry.modelName} was not run: it needs approval, and nobody could be asked.${why} Do not retry the same call; tell the user it needs their approval.`
    : `The user did not allow running ${entry.modelName}.${theirs} Do not retry the same call unless the user asks for it.`;
  return { toolName: entry.name, status: 'EXECUTION_REJECTED', rejectReason: reason, finalText, inspection };
}

/** The user withheld a result after seeing it. */
export function resultWithheld(entry: RegisteredTool, reason: string, result: ToolSuccessResult | ToolErrorResult, editedArgs?: Record<string, unknown>): ToolRejectedResult {
  const rejected: ToolRejectedResult = {
    toolName: entry.name,
    status: 'RESULT_REJECTED',
    rejectReason: reason,
    finalText: `The user withheld the result of ${entry.modelName}: ${reason}`,
    ...(result.inspection ? { inspection: result.inspection } : {}),
  };
  if (editedArgs) rejected.editedArgs = editedArgs;
  if (result.warnings) rejected.warnings = result.warnings;
  return rejected;
}

export function quotedReason(text: string): string {
  return `"${text.trim()}".`;
}
