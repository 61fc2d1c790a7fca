// Wraps a tool object from a module factory or a `pi.registerTool` extension into our Tool,
// calling its execute in the argument order of the host it was written for.
import type { Diagnostic, JsonSchema, ToolUpdate } from '../../../../shared/tools.ts';
import type { SessionEvent, Tool, ToolContext, ToolRunResult } from '../../tools/types.ts';
import { executeOrder } from './execute-argument-order.ts';
import type { ModuleHost } from './imports.ts';
import { isPlainObject } from '../files/read-json-file.ts';
import type { SourceEntry } from '../types.ts';
import { isZodSchema, zodToJsonSchema } from './zod-to-json-schema.ts';

/** `factory`: returned by a custom-tool factory; `extension`: passed to `pi.registerTool`. */
export type ModuleToolShape = 'factory' | 'extension';

export interface AdaptOptions {
  shape: ModuleToolShape;
  host: ModuleHost;
  file: string;
  entry: SourceEntry;
  /** The tool context handed to execute as `ctx` (ui, hasUI, cwd, sessionManager …). */
  hostContext: (toolCtx: ToolContext) => Record<string, unknown>;
  /** Extension `pi.on('session_*')` handlers, attached to the extension's first tool. */
  sessionHandlers?: ((event: SessionEvent) => unknown)[];
  /** The module logger's position, and its lines since then (they become the result's logs). */
  logMark?: () => number;
  logsSince?: (mark: number) => string[];
  /** Runs execute so that the module's `exec()` passes this tool's declared secrets. */
  withSecrets?: <T>(secrets: string[], run: () => T) => T;
}

type RawTool = Record<string, unknown> & { execute: (...args: unknown[]) => unknown };

export function adaptModuleTool(raw: unknown, options: AdaptOptions): { tool: Tool | null; diagnostics: Diagnostic[] } {
  const file = options.file;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { tool: null, diagnostics: [{ severity: 'error', file, message: `The factory returned ${describe(raw)} instead of a tool object`, hint: 'Return {name, description, parameters, execute} (or an array of them).', code: 'module-bad-tool' }] };
  }
  const candidate = raw as Record<string, unknown>;
  const name = candidate.name;
  if (typeof name !== 'string' || !name.trim()) {
    return { tool: null, diagnostics: [{ severity: 'error', file, message: 'A tool from this module has no name', hint: 'Give every tool a "name" (letters, digits, _ and -).', code: 'module-no-name' }] };
  }
  if (typeof candidate.execute !== 'function') {
    return { tool: null, diagnostics: [{ severity: 'error', file, message: `Tool "${name}" has no execute function`, hint: 'Add async execute(toolCallId, params, onUpdate, ctx, signal) { … }.', code: 'module-no-execute' }] };
  }
  const tool = candidate as RawTool;
  const diagnostics: Diagnostic[] = [];
  const secrets = declaredSecrets(candidate.secrets);
  if (secrets === null) {
    return { tool: null, diagnostics: [{ severity: 'error', file, message: `Tool "${name}": "secrets" must be an array of key names`, hint: 'Write secrets: ["POLYGON_API_KEY"]; each name reaches the processes it starts with exec() as an environment variable.', code: 'module-bad-secrets' }] };
  }
  const parameters = toJsonSchema(tool.parameters, file, name, diagnostics);
  const signalThird = executeOrder(tool.execute, options.host, options.shape) === 'signal-third';
  const adapted: Tool = {
    definition: { type: 'function', function: { name, description: typeof tool.description === 'string' ? tool.description : '', parameters } },
    source: { format: 'module', file, root: options.entry.root },
    meta: {
      ...(typeof tool.label === 'string' ? { label: tool.label } : {}),
      shape: options.shape,
      host: options.host,
      executeOrder: signalThird ? 'signal-third' : 'update-third',
    },
    ...(secrets.length > 0 ? { secrets } : {}),
    async execute(args, toolCtx): Promise<ToolRunResult> {
      const onUpdate = (partial: unknown) => toolCtx.onUpdate(toUpdate(partial));
      const hostCtx = options.hostContext(toolCtx);
      const callArgs = signalThird
        ? [toolCtx.callId, args, toolCtx.signal, onUpdate, hostCtx]
        : [toolCtx.callId, args, onUpdate, hostCtx, toolCtx.signal];
      const mark = options.logMark?.() ?? 0;
      const withLogs = (result: ToolRunResult): ToolRunResult => {
        const logs = options.logsSince?.(mark) ?? [];
        return logs.length > 0 ? { ...result, logs: logs.join('\n') } : result;
      };
      const run = () => tool.execute.apply(tool, callArgs);
      try {
        return withLogs(toRunResult(await (options.withSecrets ? options.withSecrets(secrets, run) : run())));
      } catch (error) {
        return withLogs({ status: 'ERROR', error: error instanceof Error ? error.message : String(error) });
      }
    },
  };
  const sessionHook = typeof tool.onSession === 'function' ? (tool.onSession as (event: unknown, ctx: unknown) => unknown) : null;
  const handlers = options.sessionHandlers ?? [];
  if (sessionHook || handlers.length > 0) {
    adapted.onSession = async (event) => {
      const hostCtx = options.hostContext({ callId: '', sessionId: event.sessionId, signal: new AbortController().signal, onUpdate: () => {} });
      // Each hook runs even when another fails; the first failure is reported (the executor logs it).
      const failures: unknown[] = [];
      const attempt = async (run: () => unknown) => {
        try {
          await run();
        } catch (error) {
          failures.push(error);
        }
      };
      if (sessionHook) await attempt(() => sessionHook.call(tool, { ...event }, hostCtx));
      for (const handler of handlers) await attempt(() => handler({ ...event, type: `session_${event.reason}` } as SessionEvent));
      if (failures.length > 0) throw failures[0];
    };
  }
  return { tool: adapted, diagnostics };
}

/** A tool's `secrets`: absent → none; an array of non-empty strings → those; else null (invalid). */
function declaredSecrets(value: unknown): string[] | null {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '')) return [...new Set(value as string[])];
  return null;
}

function toJsonSchema(parameters: unknown, file: string, name: string, diagnostics: Diagnostic[]): JsonSchema {
  if (parameters === undefined || parameters === null) return { type: 'object', properties: {} };
  if (isZodSchema(parameters)) return zodToJsonSchema(parameters);
  if (!isPlainObject(parameters)) {
    diagnostics.push({ severity: 'warning', file, message: `Tool "${name}" has parameters that are not a schema object; it takes no arguments`, code: 'module-bad-parameters' });
    return { type: 'object', properties: {} };
  }
  // TypeBox schemas are JSON Schema plus symbol keys; a JSON round trip keeps the schema part.
  const schema = JSON.parse(JSON.stringify(parameters)) as JsonSchema;
  if (schema.type === undefined && schema.properties !== undefined) schema.type = 'object';
  return schema;
}

interface ContentPart {
  type?: string;
  text?: string;
  mimeType?: string;
}

function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return (content as ContentPart[])
    .map((part) => (part?.type === 'text' || typeof part?.text === 'string' ? part.text ?? '' : `[${part?.type ?? 'content'}${part?.mimeType ? ` ${part.mimeType}` : ''}]`))
    .join('\n');
}

function toUpdate(partial: unknown): ToolUpdate {
  if (typeof partial === 'string') return { text: partial };
  if (!isPlainObject(partial)) return { details: partial };
  const text = contentText(partial.content);
  return { ...(text !== undefined ? { text } : {}), ...(partial.details !== undefined ? { details: partial.details } : {}) };
}

/** `{content: [{type: 'text', text}], details?, isError?}` → data / formattedText. */
function toRunResult(result: unknown): ToolRunResult {
  if (typeof result === 'string') return { status: 'SUCCESS', data: result, formattedText: result };
  if (result === undefined || result === null) return { status: 'SUCCESS', data: '', formattedText: '' };
  if (!isPlainObject(result)) return { status: 'SUCCESS', data: result };
  const text = contentText(result.content);
  if (result.isError === true) return { status: 'ERROR', error: text || 'the tool reported an error' };
  if (text === undefined) return { status: 'SUCCESS', data: result.details ?? result };
  return {
    status: 'SUCCESS',
    data: result.details !== undefined ? { text, details: result.details } : text,
    formattedText: text,
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
