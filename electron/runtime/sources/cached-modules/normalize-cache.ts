// Caches written by sy-f-misc's ps2tool.ps1 pass through Windows PowerShell's ConvertTo-Json,
// which writes a one-element pipeline result as a bare value: `"enum": "only"`,
// `"required": "Path"`, a single tool as an object. Those are lists again here, so the schema
// the model sees is valid and nothing downstream meets a string where it expects an array.
import { isPlainObject } from '../files/read-json-file.ts';

export function normalizeForeignCache(value: unknown): unknown {
  if (!isPlainObject(value) || value.tooldesk !== undefined) return value;
  const tools = isPlainObject(value.tools) ? [value.tools] : value.tools;
  if (!Array.isArray(tools)) return value;
  return { ...value, tools: tools.map(normalizeTool) };
}

function normalizeTool(tool: unknown): unknown {
  if (!isPlainObject(tool) || !isPlainObject(tool.function)) return tool;
  const fn = tool.function;
  return isPlainObject(fn.parameters) ? { ...tool, function: { ...fn, parameters: normalizeSchema(fn.parameters) } } : tool;
}

function normalizeSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  if (typeof out.required === 'string') out.required = [out.required];
  if (out.enum !== undefined && !Array.isArray(out.enum)) out.enum = [out.enum];
  if (isPlainObject(out.properties)) {
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, isPlainObject(v) ? normalizeSchema(v) : v]));
  }
  if (isPlainObject(out.items)) out.items = normalizeSchema(out.items);
  return out;
}
