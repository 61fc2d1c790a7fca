// JSON-Schema validation of tool arguments with ajv, with errors written for the model: which
// field, what was expected, what was given. Validators are compiled once per schema object; the
// work and the message stay bounded however wide the schema (see large-schema.ts).
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../../../shared/tools.ts';
import { MAX_SCHEMA_NODES, narrowToArgs, schemaNodeCount } from './large-schema.ts';
import { errorText } from '../run-tool.ts';

/** Distinct problems listed for the model; the rest are counted. */
export const MAX_LISTED_ERRORS = 20;
/** Field names listed after "allowed:"; the rest are counted. */
const MAX_LISTED_FIELDS = 20;
/** A field name can be as long as the model made it; one line never is. */
const MAX_LINE_CHARS = 300;
const LARGE = 'large';

export type ValidationOutcome =
  | { ok: true; warning?: string }
  | { ok: false; message: string };

// ajv's compilers (about 250 KB each) load with the first schema of their dialect, not with every
// command that opens a chat; required (ajv is CommonJS) because checking is synchronous.
const requireAjv = createRequire(import.meta.url);
type AjvClass = new (options: typeof AJV_OPTIONS) => Ajv;
const AJV_BUILDS: Record<Dialect, () => AjvClass> = {
  'draft-07': () => (requireAjv('ajv') as typeof import('ajv')).Ajv as unknown as AjvClass,
  '2019-09': () => (requireAjv('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019 as unknown as AjvClass,
  '2020-12': () => (requireAjv('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020 as unknown as AjvClass,
};

const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false, verbose: true } as const;
type Dialect = 'draft-07' | '2019-09' | '2020-12';

/**
 * The dialect a schema declares in `$schema`: 2020-12 (MCP's default since 2025-11-25, emitted by
 * the v2 SDKs and zod 4), 2019-09, else draft-07 (older drafts and schemas that say nothing).
 */
export function schemaDialect(schema: object): Dialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return 'draft-07';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

export class ArgsValidator {
  private readonly instances = new Map<Dialect, Ajv>();
  private readonly compiled = new WeakMap<object, ValidateFunction | string>();

  /** One ajv per dialect, made when a schema first needs it. */
  private ajvFor(schema: object): Ajv {
    const dialect = schemaDialect(schema);
    let ajv = this.instances.get(dialect);
    if (!ajv) {
      ajv = new (AJV_BUILDS[dialect]())(AJV_OPTIONS);
      this.instances.set(dialect, ajv);
    }
    return ajv;
  }

  validate(toolName: string, schema: JsonSchema | undefined, args: Record<string, unknown>): ValidationOutcome {
    if (!schema || typeof schema !== 'object') return { ok: true };
    const validator = this.compile(schema);
    if (validator === LARGE) return this.validateLarge(toolName, schema, args);
    if (typeof validator === 'string') return unvalidated(toolName, validator);
    if (validator(args)) return { ok: true };
    return { ok: false, message: describeErrors(toolName, validator.errors ?? [], args) };
  }

  /** A wide schema is compiled per call, narrowed to the properties the call passes. */
  private validateLarge(toolName: string, schema: JsonSchema, args: Record<string, unknown>): ValidationOutcome {
    const narrowed = narrowToArgs(schema, args);
    if (!narrowed || schemaNodeCount(narrowed) > MAX_SCHEMA_NODES) {
      return unvalidated(toolName, `over ${MAX_SCHEMA_NODES} subschemas, too large to check`);
    }
    const ajv = this.ajvFor(narrowed);
    try {
      const validator = ajv.compile(narrowed);
      if (validator(args)) return { ok: true };
      return { ok: false, message: describeErrors(toolName, validator.errors ?? [], args, { narrowed, schema }) };
    } catch (error) {
      return unvalidated(toolName, errorText(error));
    } finally {
      ajv.removeSchema(narrowed); // ajv caches by object; a per-call schema must not pile up
    }
  }

  private compile(schema: JsonSchema): ValidateFunction | string {
    const known = this.compiled.get(schema);
    if (known) return known;
    if (schemaNodeCount(schema) > MAX_SCHEMA_NODES) {
      this.compiled.set(schema, LARGE);
      return LARGE;
    }
    let result: ValidateFunction | string;
    try {
      result = this.ajvFor(schema).compile(schema);
    } catch (error) {
      result = errorText(error);
    }
    this.compiled.set(schema, result);
    return result;
  }
}

/** A broken or unmanageable schema is the tool author's problem; run unvalidated rather than refuse forever. */
function unvalidated(toolName: string, why: string): ValidationOutcome {
  return { ok: true, warning: `The schema of ${toolName} is invalid (${why}); arguments were not validated.` };
}

/** The narrowed root stands for the whole schema when naming the allowed fields. */
interface Narrowing {
  narrowed: object;
  schema: object;
}

export function describeErrors(toolName: string, errors: ErrorObject[], args: unknown, narrowing?: Narrowing): string {
  const lines = new Set<string>();
  let covered = 0;
  for (const error of errors) {
    const line = clip(describe(error, args, narrowing), MAX_LINE_CHARS);
    if (!lines.has(line) && lines.size === MAX_LISTED_ERRORS) break;
    lines.add(line);
    covered += 1;
  }
  const listed = [...lines].map((line) => `- ${line}`);
  const rest = errors.length - covered;
  if (rest > 0) listed.push(`- ... and ${rest} more problem${rest === 1 ? '' : 's'}`);
  return [
    `Invalid arguments for ${toolName}:`,
    ...listed,
    'Fix the arguments to match the tool\'s parameters and call it again.',
  ].join('\n');
}

function describe(error: ErrorObject, args: unknown, narrowing?: Narrowing): string {
  const field = fieldName(error.instancePath);
  const given = show(valueAt(args, error.instancePath));
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required field \`${joinField(error.instancePath, String(p.missingProperty))}\``;
    case 'additionalProperties':
      return `unexpected field \`${joinField(error.instancePath, String(p.additionalProperty))}\`${allowedFields(error, narrowing)}`;
    case 'type':
      return `\`${field}\`: expected ${String(p.type)}, got ${typeOf(valueAt(args, error.instancePath))} ${given}`;
    case 'enum':
      return `\`${field}\`: expected one of ${(p.allowedValues as unknown[]).map((v) => show(v)).join(', ')}; got ${given}`;
    case 'const':
      return `\`${field}\`: expected ${show(p.allowedValue)}; got ${given}`;
    default:
      return `\`${field}\`: ${error.message ?? 'is invalid'}; got ${given}`;
  }
}

function allowedFields(error: ErrorObject, narrowing?: Narrowing): string {
  const parent = narrowing && error.parentSchema === narrowing.narrowed ? narrowing.schema : error.parentSchema;
  const properties = (parent as { properties?: Record<string, unknown> } | undefined)?.properties;
  const names = properties ? Object.keys(properties) : [];
  if (names.length === 0) return '';
  const more = names.length - MAX_LISTED_FIELDS;
  return ` (allowed: ${names.slice(0, MAX_LISTED_FIELDS).join(', ')}${more > 0 ? `, and ${more} more` : ''})`;
}

function fieldName(pointer: string): string {
  if (!pointer) return '(arguments)';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

function joinField(pointer: string, child: string): string {
  return pointer ? `${fieldName(pointer)}.${child}` : child;
}

function valueAt(root: unknown, pointer: string): unknown {
  if (!pointer) return root;
  let value: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}

function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return clip(text, 80);
}
