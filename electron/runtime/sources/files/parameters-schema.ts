// Checks a tool's `parameters` JSON Schema the way the formats' own docs require it.
import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';
import type { Diagnostic, JsonSchema } from '../../../../shared/tools.ts';
import { isPlainObject } from './read-json-file.ts';

export interface CheckedSchema {
  schema: JsonSchema;
  diagnostics: Diagnostic[];
}

/**
 * Returns a usable object schema (an empty one when absent) and what is wrong with the given one.
 * `field` names the field in the file for the message, e.g. `parameters`.
 */
export function checkParametersSchema(value: unknown, file: string, field = 'parameters', extraRequired: unknown = undefined): CheckedSchema {
  const diagnostics: Diagnostic[] = [];
  const error = (message: string, hint: string) => diagnostics.push({ severity: 'error', file, message, hint, code: 'invalid-schema' });
  if (value === undefined) {
    const schema: JsonSchema = { type: 'object', properties: {} };
    return withExtraRequired(schema, extraRequired, file, diagnostics);
  }
  if (!isPlainObject(value)) {
    error(`"${field}" must be a JSON Schema object`, `Write "${field}": {"type": "object", "properties": {…}, "required": […]}.`);
    return { schema: { type: 'object', properties: {} }, diagnostics };
  }
  const schema: JsonSchema = { ...value };
  if (schema.type !== 'object') {
    error(`"${field}.type" must be "object" (found ${JSON.stringify(schema.type)})`, 'The model passes arguments as one object; set "type": "object" and list the arguments under "properties".');
    schema.type = 'object';
  }
  if (schema.properties === undefined) schema.properties = {};
  if (!isPlainObject(schema.properties)) {
    error(`"${field}.properties" must be an object`, 'Map each argument name to its schema, e.g. {"text": {"type": "string"}}.');
    schema.properties = {};
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))) {
    error(`"${field}.required" must be an array of argument names`, 'Write "required": ["name", …].');
    delete schema.required;
  }
  const checked = withExtraRequired(schema, extraRequired, file, diagnostics, field);
  checkMetaSchema(checked.schema, file, field, diagnostics);
  return checked;
}

// Hand-written schemas go wrong in ways the checks above do not see (`"enum": "a"`,
// `"type": "str"`); the executor would only say so, to the model, at the first call.
// ajv loads with the first schema checked (a process with no such tool never loads it); required
// because the check is synchronous.
const requireAjv = createRequire(import.meta.url);
let checker: Ajv | undefined;

function checkMetaSchema(schema: JsonSchema, file: string, field: string, diagnostics: Diagnostic[]): void {
  const metaSchemaChecker = (checker ??= new (requireAjv('ajv') as typeof import('ajv')).Ajv({ strict: false, validateFormats: false }));
  let valid: boolean;
  try {
    valid = metaSchemaChecker.validateSchema(schema) as boolean;
  } catch {
    return;
  }
  if (valid) return;
  const problems = (metaSchemaChecker.errors ?? []).slice(0, 3).map((e) => `${field}${e.instancePath.replaceAll('/', '.')} ${e.message ?? 'is invalid'}`);
  diagnostics.push({
    severity: 'warning',
    file,
    message: `"${field}" is not a valid JSON Schema: ${problems.join('; ')}; the tool's arguments are not checked`,
    hint: 'Fix the schema: e.g. "enum" takes an array, "type" one of string, integer, number, boolean, array, object.',
    code: 'invalid-schema',
  });
}

function withExtraRequired(schema: JsonSchema, extra: unknown, file: string, diagnostics: Diagnostic[], field = 'parameters'): CheckedSchema {
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  if (Array.isArray(extra)) for (const name of extra) if (typeof name === 'string') required.add(name);
  const properties = schema.properties as Record<string, unknown>;
  for (const name of required) {
    if (!(name in properties)) {
      diagnostics.push({
        severity: 'error',
        file,
        message: `"${field}.required" lists "${name}", which is not in "${field}.properties"`,
        hint: `Add "${name}" to "properties" or remove it from "required".`,
        code: 'invalid-schema',
      });
      required.delete(name);
    }
  }
  if (required.size > 0) schema.required = [...required];
  else delete schema.required;
  return { schema, diagnostics };
}
