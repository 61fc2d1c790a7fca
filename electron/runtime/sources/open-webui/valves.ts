// Valves and UserValves of Open WebUI toolkits: the values the user set, kept per group in
// TOOLDESK_HOME/tool-valves.json; values that look secret live in the keychain instead (the file
// names which keys have one). The tool gets them before each call, so a change needs no reload.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write.ts';
import type { ValveSpec } from './parse.ts';

export type ValveKind = 'valves' | 'userValves';

export interface GroupValves {
  valves?: Record<string, unknown>;
  userValves?: Record<string, unknown>;
  /** Keys whose value is in the keychain. */
  secrets?: { valves?: string[]; userValves?: string[] };
}

export const valvesFile = (home: string): string => join(home, 'tool-valves.json');

/** The keychain name of a secret valve (letters, digits, `_`, `-`, `.` only). */
export function valveSecretName(group: string, kind: ValveKind, key: string): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `openwebui.${clean(group)}.${kind === 'userValves' ? 'user.' : ''}${clean(key)}`.slice(0, 128);
}

/** Every group's saved values. A missing file is empty; a broken one is an error naming it. */
export async function readValves(home: string): Promise<Record<string, GroupValves>> {
  const file = valvesFile(home);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it or delete it to go back to the tools' defaults`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${file} must hold a JSON object of groups; fix it or delete it`);
  return value as Record<string, GroupValves>;
}

export async function writeValves(home: string, all: Record<string, GroupValves>): Promise<void> {
  await mkdir(home, { recursive: true });
  await writeFileAtomic(valvesFile(home), `${JSON.stringify(all, null, 2)}\n`);
}

/** What a call sends run_openwebui.py: plain values, and the env names of the keychain ones. */
export interface CallValves {
  valves: Record<string, unknown>;
  userValves: Record<string, unknown>;
  secretEnv: { valves: Record<string, string>; userValves: Record<string, string> };
  /** Keychain names the runner resolves into the environment. */
  secrets: string[];
}

export function callValves(group: string, saved: GroupValves | undefined): CallValves {
  const out: CallValves = { valves: { ...saved?.valves }, userValves: { ...saved?.userValves }, secretEnv: { valves: {}, userValves: {} }, secrets: [] };
  for (const kind of ['valves', 'userValves'] as const) {
    for (const key of saved?.secrets?.[kind] ?? []) {
      const name = valveSecretName(group, kind, key);
      out.secretEnv[kind][key] = name;
      out.secrets.push(name);
    }
  }
  return out;
}

/**
 * `text` (as typed after KEY=) as the valve's JSON value: integers, numbers, booleans and enums
 * are checked; arrays and objects are JSON. Throws an Error naming the key and what it expects.
 */
export function parseValveValue(spec: ValveSpec, text: string): unknown {
  const schema = spec.schema as { type?: string; enum?: unknown[]; anyOf?: unknown[] };
  const expect = (what: string) => new Error(`${spec.name} expects ${what}, got ${JSON.stringify(text)}`);
  let value: unknown = text;
  switch (schema.type) {
    case 'integer':
      if (!/^-?\d+$/.test(text.trim())) throw expect('an integer');
      value = Number(text);
      break;
    case 'number':
      if (text.trim() === '' || !Number.isFinite(Number(text))) throw expect('a number');
      value = Number(text);
      break;
    case 'boolean':
      if (!/^(true|false)$/i.test(text.trim())) throw expect('true or false');
      value = /^true$/i.test(text.trim());
      break;
    case 'array':
    case 'object':
      try {
        value = JSON.parse(text);
      } catch {
        throw expect(`JSON (an ${schema.type})`);
      }
      if (schema.type === 'array' ? !Array.isArray(value) : !value || typeof value !== 'object' || Array.isArray(value)) throw expect(`a JSON ${schema.type}`);
      break;
    default:
      break;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) throw expect(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  return value;
}

/** What the secret store needs to keep secret valves (SecretStore satisfies it). */
export interface ValveSecrets {
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
}

/**
 * Sets `assignments` (KEY → text as typed) on `group`'s valves of `kind`: unknown keys and bad
 * values are refused before anything is written; secret ones go to the keychain; an empty value
 * resets a key to the file's default. Returns the group's new record.
 */
export async function setValves(home: string, group: string, kind: ValveKind, specs: ValveSpec[], assignments: Record<string, string>, secrets: ValveSecrets): Promise<GroupValves> {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const parsed: { spec: ValveSpec; text: string; value: unknown }[] = [];
  for (const [key, text] of Object.entries(assignments)) {
    const spec = byName.get(key);
    if (!spec) throw new Error(`${group} has no ${kind === 'userValves' ? 'UserValves' : 'Valves'} field "${key}"; its fields: ${[...byName.keys()].join(', ') || 'none'}`);
    parsed.push({ spec, text, value: text === '' ? undefined : parseValveValue(spec, text) });
  }
  const all = await readValves(home);
  const record: GroupValves = all[group] ?? {};
  const values = { ...record[kind] };
  const secretKeys = new Set(record.secrets?.[kind] ?? []);
  for (const { spec, text, value } of parsed) {
    delete values[spec.name];
    if (spec.secret) {
      const name = valveSecretName(group, kind, spec.name);
      if (text === '') {
        await secrets.delete(name);
        secretKeys.delete(spec.name);
      } else {
        await secrets.set(name, text);
        secretKeys.add(spec.name);
      }
    } else if (value !== undefined) {
      values[spec.name] = value;
    }
  }
  record[kind] = values;
  record.secrets = { ...record.secrets, [kind]: [...secretKeys] };
  all[group] = record;
  await writeValves(home, all);
  return record;
}
