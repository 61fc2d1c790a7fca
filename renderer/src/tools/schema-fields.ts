// A tool's JSON Schema → form fields, and the form's raw values → arguments (with errors
// written for the user). Pure, so the form's logic is tested without a DOM.
import type { JsonSchema } from '../../../shared/tools.ts';

export type FieldKind = 'string' | 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  /** Shown and pre-filled: the schema's default, as the form holds it. */
  initial: string | boolean;
  enumValues?: unknown[];
  /** For json fields: the JSON type expected ('array' | 'object' | 'any'). */
  jsonType?: 'array' | 'object' | 'any';
}

export type RawValues = Record<string, string | boolean>;

export function fieldsOf(schema: JsonSchema): Field[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, prop]) => fieldOf(name, prop ?? {}, required.has(name)));
}

function fieldOf(name: string, prop: JsonSchema, required: boolean): Field {
  const description = typeof prop.description === 'string' ? prop.description : undefined;
  const type = Array.isArray(prop.type) ? (prop.type as string[]).find((t) => t !== 'null') : (prop.type as string | undefined);
  const base = { name, required, description };
  const enumValues = Array.isArray(prop.enum) ? (prop.enum as unknown[]) : prop.const !== undefined ? [prop.const] : anyOfConsts(prop);
  if (enumValues) return { ...base, kind: 'enum', enumValues, initial: prop.default !== undefined ? JSON.stringify(prop.default) : required ? JSON.stringify(enumValues[0]) : '' };
  if (type === 'boolean') return { ...base, kind: 'boolean', initial: prop.default === true };
  if (type === 'number' || type === 'integer') return { ...base, kind: type, initial: prop.default !== undefined ? String(prop.default) : '' };
  if (type === 'string') {
    const long = (typeof prop.maxLength !== 'number' || prop.maxLength > 200) && /content|code|text|body|script|query/i.test(name);
    return { ...base, kind: long ? 'text' : 'string', initial: typeof prop.default === 'string' ? prop.default : '' };
  }
  const jsonType = type === 'array' ? 'array' : type === 'object' ? 'object' : 'any';
  return { ...base, kind: 'json', jsonType, initial: prop.default !== undefined ? JSON.stringify(prop.default, null, 2) : '' };
}

/** TypeBox unions of literals arrive as anyOf: [{const: …}, …]. */
function anyOfConsts(prop: JsonSchema): unknown[] | undefined {
  const list = (prop.anyOf ?? prop.oneOf) as JsonSchema[] | undefined;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  if (!list.every((s) => s && 'const' in s)) return undefined;
  return list.map((s) => s.const);
}

export function initialValues(fields: Field[]): RawValues {
  return Object.fromEntries(fields.map((f) => [f.name, f.initial]));
}

/** The form's raw values holding `args` (the approval card's "Edit arguments" starts from the call's). */
export function valuesFromArgs(fields: Field[], args: Record<string, unknown>): RawValues {
  return Object.fromEntries(
    fields.map((f) => {
      const value = args[f.name];
      if (value === undefined) return [f.name, f.kind === 'boolean' ? false : ''];
      if (f.kind === 'boolean') return [f.name, value === true];
      if (f.kind === 'enum') return [f.name, JSON.stringify(value)];
      if (f.kind === 'json') return [f.name, JSON.stringify(value, null, 2)];
      return [f.name, typeof value === 'string' ? value : JSON.stringify(value)];
    }),
  );
}

/** Arguments the schema does not describe are kept as they are (the form cannot show them). */
export function extraArgs(fields: Field[], args: Record<string, unknown>): Record<string, unknown> {
  const known = new Set(fields.map((f) => f.name));
  return Object.fromEntries(Object.entries(args).filter(([key]) => !known.has(key)));
}

export interface ParsedArgs {
  args: Record<string, unknown>;
  /** Field name → what is wrong; empty when the args can be sent. */
  errors: Record<string, string>;
}

export function parseValues(fields: Field[], raw: RawValues): ParsedArgs {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = raw[field.name];
    if (field.kind === 'boolean') {
      if (value === true || field.required) args[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    if (text.trim() === '') {
      if (field.required) errors[field.name] = 'Required.';
      continue;
    }
    switch (field.kind) {
      case 'string':
      case 'text':
        args[field.name] = text;
        break;
      case 'number':
      case 'integer': {
        const n = Number(text);
        if (!Number.isFinite(n)) errors[field.name] = 'Not a number.';
        else if (field.kind === 'integer' && !Number.isInteger(n)) errors[field.name] = 'Must be a whole number.';
        else args[field.name] = n;
        break;
      }
      case 'enum':
        try {
          args[field.name] = JSON.parse(text);
        } catch {
          args[field.name] = text;
        }
        break;
      case 'json': {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          errors[field.name] = `Invalid JSON: ${(error as Error).message}`;
          break;
        }
        if (field.jsonType === 'array' && !Array.isArray(parsed)) errors[field.name] = 'Must be a JSON array, e.g. ["a", "b"].';
        else if (field.jsonType === 'object' && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)))
          errors[field.name] = 'Must be a JSON object, e.g. {"key": "value"}.';
        else args[field.name] = parsed;
        break;
      }
    }
  }
  return { args, errors };
}
