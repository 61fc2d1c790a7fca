// Reads an Astrion three-layer tool folder's JSON layers (seed 004): definition.json (required),
// return.json and meta.json (optional).
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Diagnostic, JsonSchema } from '../../../../shared/tools.ts';
import { TOOL_ID_NAME } from '../../../../shared/new-tool-formats.ts';
import { parseFormatTemplate } from './format-template.ts';
import { formatWithSpec } from './format-spec.ts';
import { pythonRepr } from './python-literal.ts';
import { checkParametersSchema } from '../files/parameters-schema.ts';
import { isPlainObject, readJsonFile } from '../files/read-json-file.ts';

export const THREE_LAYER_ID_PATTERN = TOOL_ID_NAME;
export const THREE_LAYER_DEFAULT_CATEGORY = 'custom';
export const THREE_LAYER_DEFAULT_TIMEOUT_S = 30;
export const THREE_LAYER_MAX_TIMEOUT_S = 600;
export const RETURN_TEMPLATE_FIELDS = ['output', 'stderr', 'return_code', 'tool_id'] as const;

export interface ThreeLayerDefinition {
  id: string;
  description: string;
  parameters: JsonSchema;
  category: string;
  icon?: string;
  timeoutS: number;
  secrets: string[];
  network: boolean;
  /** return.json */
  truncate?: number;
  template?: string;
  /** meta.json, as written. */
  meta?: Record<string, unknown>;
}

/** `maxBytes`: the tool source size limit (settings.limits.toolSourceMaxBytes). */
export async function readThreeLayerDefinition(folder: string, maxBytes?: number): Promise<{ definition: ThreeLayerDefinition | null; diagnostics: Diagnostic[] }> {
  const file = join(folder, 'definition.json');
  const diagnostics: Diagnostic[] = [];
  const read = await readJsonFile(file, maxBytes);
  if (!read.ok) return { definition: null, diagnostics: [read.diagnostic] };
  if (!isPlainObject(read.value)) {
    return { definition: null, diagnostics: [{ severity: 'error', file, message: 'definition.json must be a JSON object', hint: 'Write {"id": "my_tool", "description": "…", "parameters": {…}}.', code: 'invalid-definition' }] };
  }
  // Astrion's own API writes every field it was not given as null (upsert_tool), and its loader
  // reads fields with `or`: null means absent.
  const value = withoutNulls(read.value);
  const folderName = basename(folder);
  let id = folderName;
  if (value.id === undefined) {
    diagnostics.push({ severity: 'info', file, message: `"id" is missing; the folder name "${folderName}" is used`, code: 'id-from-folder' });
  } else if (typeof value.id !== 'string' || !THREE_LAYER_ID_PATTERN.test(value.id)) {
    return {
      definition: null,
      diagnostics: [...diagnostics, { severity: 'error', file, message: `"id" must match ${THREE_LAYER_ID_PATTERN.source} (found ${JSON.stringify(value.id)})`, hint: 'Use letters, digits, _ and -, starting with a letter, e.g. "text_len".', code: 'invalid-id' }],
    };
  } else {
    id = value.id;
    if (id !== folderName) diagnostics.push({ severity: 'warning', file, message: `"id" "${id}" differs from its folder "${folderName}"`, hint: `Rename the folder to "${id}" (seed 004 expects them to match).`, code: 'id-folder-mismatch' });
  }
  if (!THREE_LAYER_ID_PATTERN.test(id)) {
    return { definition: null, diagnostics: [...diagnostics, { severity: 'error', file, message: `Folder name "${id}" is not a valid tool id`, hint: 'Add an "id" to definition.json.', code: 'invalid-id' }] };
  }
  // An empty description gets Astrion's own fallback, so the model sees what Astrion shows it.
  const description = typeof value.description === 'string' && value.description ? value.description : `自定义工具 ${id}`;
  if (value.description !== undefined && typeof value.description !== 'string') diagnostics.push({ severity: 'error', file, message: '"description" must be a string', code: 'invalid-definition' });
  const checked = checkParametersSchema(value.parameters, file, 'parameters', value.required);
  diagnostics.push(...checked.diagnostics);
  let category = THREE_LAYER_DEFAULT_CATEGORY;
  if (typeof value.category === 'string' && value.category.trim()) category = value.category.trim();
  else if (value.category !== undefined) diagnostics.push({ severity: 'warning', file, message: `"category" must be a non-empty string; "${THREE_LAYER_DEFAULT_CATEGORY}" is used`, code: 'invalid-definition' });
  let timeoutS = THREE_LAYER_DEFAULT_TIMEOUT_S;
  if (value.timeout !== undefined) {
    if (typeof value.timeout !== 'number' || !(value.timeout > 0)) diagnostics.push({ severity: 'error', file, message: `"timeout" must be a positive number of seconds (found ${JSON.stringify(value.timeout)})`, hint: `Remove it for the default ${THREE_LAYER_DEFAULT_TIMEOUT_S} s.`, code: 'invalid-definition' });
    else timeoutS = Math.min(value.timeout, THREE_LAYER_MAX_TIMEOUT_S);
  }
  const secrets = Array.isArray(value.secrets) ? value.secrets.filter((s): s is string => typeof s === 'string' && s !== '') : [];
  if (value.secrets !== undefined && (!Array.isArray(value.secrets) || secrets.length !== value.secrets.length)) {
    diagnostics.push({ severity: 'error', file, message: '"secrets" must be an array of key names', hint: 'Write "secrets": ["POLYGON_API_KEY"]; each name reaches execution.py as an environment variable.', code: 'invalid-definition' });
  }
  const definition: ThreeLayerDefinition = {
    id,
    description,
    parameters: checked.schema,
    category,
    ...(typeof value.icon === 'string' ? { icon: value.icon } : {}),
    timeoutS,
    secrets,
    network: value.network !== false,
  };
  await readReturnLayer(folder, definition, diagnostics);
  await readMetaLayer(folder, definition, diagnostics);
  return { definition, diagnostics };
}

function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

async function readReturnLayer(folder: string, definition: ThreeLayerDefinition, diagnostics: Diagnostic[]): Promise<void> {
  const file = join(folder, 'return.json');
  if (!existsSync(file)) return;
  const read = await readJsonFile(file);
  if (!read.ok) {
    diagnostics.push({ ...read.diagnostic, severity: 'warning', hint: 'return.json is ignored until it is valid JSON.' });
    return;
  }
  if (!isPlainObject(read.value)) {
    diagnostics.push({ severity: 'warning', file, message: 'return.json must be a JSON object; it is ignored', code: 'invalid-return' });
    return;
  }
  const { truncate, template } = withoutNulls(read.value);
  if (truncate !== undefined) {
    if (typeof truncate === 'number' && Number.isInteger(truncate) && truncate > 0) definition.truncate = truncate;
    else diagnostics.push({ severity: 'warning', file, message: `"truncate" must be a positive integer (found ${JSON.stringify(truncate)}); output is not truncated`, code: 'invalid-return' });
  }
  if (template !== undefined) {
    const problem = typeof template === 'string' ? returnTemplateProblem(template) : 'it must be a string';
    if (problem) diagnostics.push({ severity: 'warning', file, message: `"template" is invalid (${problem}); the default message is used`, hint: `Use only ${RETURN_TEMPLATE_FIELDS.map((f) => `{${f}}`).join(' ')}, and {{ }} for literal braces.`, code: 'invalid-return-template' });
    else definition.template = template as string;
  }
}

/** Why a return.json template cannot be formatted, or null when it can. */
export function returnTemplateProblem(template: string): string | null {
  const parsed = parseFormatTemplate(template);
  if (parsed.problems.length > 0) return parsed.problems[0]!.message;
  for (const s of parsed.segments) {
    if (s.kind === 'field' && !(RETURN_TEMPLATE_FIELDS as readonly string[]).includes(s.name)) return `{${s.name}} is not one of ${RETURN_TEMPLATE_FIELDS.map((f) => `{${f}}`).join(' ')}`;
    if (s.kind === 'field' && s.accessors) return `${s.raw} looks inside {${s.name}}, which is not supported`;
  }
  return null;
}

/**
 * Formats a return.json template (checked with returnTemplateProblem first) as str.format does,
 * conversions and specs included; undefined where Python would raise (Astrion then falls back
 * to the default message).
 */
export function formatReturnTemplate(template: string, values: Record<(typeof RETURN_TEMPLATE_FIELDS)[number], string | number>): string | undefined {
  let out = '';
  for (const s of parseFormatTemplate(template).segments) {
    if (s.kind === 'text') {
      out += s.text;
      continue;
    }
    const raw = values[s.name as keyof typeof values] ?? '';
    const value = s.conversion === 'r' || s.conversion === 'a' ? pythonRepr(raw) : raw;
    const text = s.spec ? formatWithSpec(value, s.spec) : String(value);
    if (text === undefined) return undefined;
    out += text;
  }
  return out;
}

async function readMetaLayer(folder: string, definition: ThreeLayerDefinition, diagnostics: Diagnostic[]): Promise<void> {
  const file = join(folder, 'meta.json');
  if (!existsSync(file)) return;
  const read = await readJsonFile(file);
  if (!read.ok) diagnostics.push({ ...read.diagnostic, severity: 'warning', hint: 'meta.json is ignored until it is valid JSON.' });
  else if (!isPlainObject(read.value)) diagnostics.push({ severity: 'warning', file, message: 'meta.json must be a JSON object; it is ignored', code: 'invalid-meta' });
  else definition.meta = read.value;
}
