// ajv check of a whole settings object; returns readable problems ("limits.maxSteps must be >= 1").
import type { ErrorObject } from 'ajv';
import check from './settings-validator.ts';

export function validateSettings(data: unknown): string[] {
  if (check(data)) return [];
  return ((check.errors ?? []) as ErrorObject[]).map((e) => {
    const where = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'settings';
    const params = e.params as { additionalProperty?: string; allowedValues?: unknown[]; allowedValue?: unknown };
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String(params.additionalProperty)})`
        : e.keyword === 'enum'
          ? `: ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`
          : e.keyword === 'const'
            ? `: ${JSON.stringify(params.allowedValue)}`
            : '';
    return `${where} ${e.message ?? 'is invalid'}${extra}`;
  });
}
