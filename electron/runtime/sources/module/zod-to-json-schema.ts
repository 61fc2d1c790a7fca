// Converts the zod schemas pi extensions sometimes use for `parameters` into JSON Schema (the
// subset tool parameters use). zod 3 schemas are walked here; zod 4 schemas (a tool folder's own
// zod, or the project's) go through zod 4's own converter. Anything unknown is unconstrained.
import { toJSONSchema } from 'zod/v4/core';
import type { JsonSchema } from '../../../../shared/tools.ts';

interface ZodLike {
  _def: { typeName?: string; description?: string; [key: string]: unknown };
  safeParse?: unknown;
}

export function isZodSchema(value: unknown): value is ZodLike {
  return typeof value === 'object' && value !== null && '_def' in value && typeof (value as ZodLike).safeParse === 'function';
}

export function zodToJsonSchema(schema: ZodLike): JsonSchema {
  if ('_zod' in schema) return fromZod4(schema);
  return convert(schema);
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/** zod 4's converter, without what it adds that a tool never declared. */
function fromZod4(schema: ZodLike): JsonSchema {
  let out: JsonSchema;
  try {
    out = toJSONSchema(schema as never, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
  delete out.$schema;
  const strip = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    for (const bound of ['minimum', 'maximum']) if (SAFE_INTEGER_BOUNDS.has(record[bound] as number)) delete record[bound];
    for (const value of Object.values(record)) strip(value);
  };
  strip(out);
  return out;
}

/**
 * A value inside a zod shape that is not zod: tools mix in JSON schemas from TypeBox helpers
 * (`pi.zod.object({ action: StringEnum([...]) })`). Kept as the JSON schema it already is.
 */
function plainSchema(value: unknown): JsonSchema {
  if (typeof value !== 'object' || value === null) return {};
  try {
    return JSON.parse(JSON.stringify(value)) as JsonSchema;
  } catch {
    return {};
  }
}

const TYPEBOX_OPTIONAL = Symbol.for('TypeBox.Optional');

function isOptional(value: unknown): boolean {
  if (isZodSchema(value)) return value._def.typeName === 'ZodOptional' || value._def.typeName === 'ZodDefault';
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TYPEBOX_OPTIONAL] === 'Optional';
}

function convert(schema: ZodLike): JsonSchema {
  if (!isZodSchema(schema)) return plainSchema(schema);
  const def = schema._def;
  const described = (s: JsonSchema): JsonSchema => (def.description ? { ...s, description: def.description } : s);
  switch (def.typeName) {
    case 'ZodString':
      return described({ type: 'string' });
    case 'ZodNumber': {
      const checks = (def.checks as { kind: string }[] | undefined) ?? [];
      return described({ type: checks.some((c) => c.kind === 'int') ? 'integer' : 'number' });
    }
    case 'ZodBigInt':
      return described({ type: 'integer' });
    case 'ZodBoolean':
      return described({ type: 'boolean' });
    case 'ZodNull':
      return described({ type: 'null' });
    case 'ZodLiteral':
      return described({ const: def.value });
    case 'ZodEnum':
      return described({ type: 'string', enum: def.values as string[] });
    case 'ZodNativeEnum':
      return described({ enum: Object.values(def.values as object) });
    case 'ZodArray':
      return described({ type: 'array', items: convert(def.type as ZodLike) });
    case 'ZodRecord':
      return described({ type: 'object', additionalProperties: convert(def.valueType as ZodLike) });
    case 'ZodUnion':
      return described({ anyOf: (def.options as ZodLike[]).map(convert) });
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodEffects':
    case 'ZodBranded':
    case 'ZodReadonly':
      return described(convert((def.innerType ?? def.schema ?? def.type) as ZodLike));
    case 'ZodDefault': {
      const inner = convert(def.innerType as ZodLike);
      const value = typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
      return described({ ...inner, default: value });
    }
    case 'ZodObject': {
      const shape = typeof def.shape === 'function' ? (def.shape as () => Record<string, ZodLike>)() : (def.shape as Record<string, ZodLike>);
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(shape)) {
        properties[key] = convert(value);
        if (!isOptional(value)) required.push(key);
      }
      return described({ type: 'object', properties, ...(required.length ? { required } : {}) });
    }
    default:
      return described({});
  }
}
