// Reads and validates an Agenvoy script tool's tool.json (seed 001).
import { basename, join } from 'node:path';
import type { Diagnostic, JsonSchema } from '../../../../shared/tools.ts';
import { SNAKE_CASE_NAME } from '../../../../shared/new-tool-formats.ts';
import { checkParametersSchema } from '../files/parameters-schema.ts';
import { isPlainObject, readJsonFile } from '../files/read-json-file.ts';

/**
 * Without `timeout` a script gets 60 s (DESIGN.md); Agenvoy itself allows its whole 5-minute cap,
 * which a tool can still ask for with `"timeout": 300`.
 */
export const SCRIPT_DEFAULT_TIMEOUT_S = 60;
export const SCRIPT_MAX_TIMEOUT_S = 300;
/** snake_case, as seed 001 asks; digits allowed after the first letter. */
export const SCRIPT_NAME_PATTERN = SNAKE_CASE_NAME;

export interface ScriptManifest {
  name: string;
  description: string;
  parameters: JsonSchema;
  alwaysAllow: boolean;
  timeoutS: number;
  secrets: string[];
  network: boolean;
  /** Every field as written, unknown ones included (kept, ignored). */
  raw: Record<string, unknown>;
}

export interface ManifestResult {
  manifest: ScriptManifest | null;
  diagnostics: Diagnostic[];
}

/** `maxBytes`: the tool source size limit (settings.limits.toolSourceMaxBytes). */
export async function readScriptManifest(folder: string, maxBytes?: number): Promise<ManifestResult> {
  const file = join(folder, 'tool.json');
  const read = await readJsonFile(file, maxBytes);
  if (!read.ok) return { manifest: null, diagnostics: [read.diagnostic] };
  return checkScriptManifest(read.value, file, basename(folder));
}

export function checkScriptManifest(value: unknown, file: string, folderName: string): ManifestResult {
  const diagnostics: Diagnostic[] = [];
  const fail = (message: string, hint: string): ManifestResult => ({
    manifest: null,
    diagnostics: [...diagnostics, { severity: 'error', file, message, hint, code: 'invalid-tool-json' }],
  });
  if (!isPlainObject(value)) return fail('tool.json must be a JSON object', 'Write {"name": "my_tool", "description": "…", "parameters": {…}}.');
  const { name } = value;
  if (typeof name !== 'string' || name.length === 0) return fail('"name" is required in tool.json', `Add "name": "${toSnakeCase(folderName)}" (snake_case; Tooldesk registers it as script_<name>).`);
  if (name.includes('/') || name.includes('\\') || name === '..' || name === '.') return fail(`"name" must not contain a path ("${name}")`, 'Use a plain snake_case name such as "calculate_rsi".');
  if (!SCRIPT_NAME_PATTERN.test(name)) {
    diagnostics.push({ severity: 'warning', file, message: `"name" should be snake_case (found "${name}")`, hint: `Rename it to "${toSnakeCase(name)}".`, code: 'tool-name-style' });
  }
  if (name !== folderName) {
    diagnostics.push({ severity: 'info', file, message: `Folder "${folderName}" holds tool "${name}"; the tool is registered as script_${name}`, code: 'name-folder-mismatch' });
  }
  let description = '';
  if (value.description !== undefined && typeof value.description !== 'string') {
    diagnostics.push({ severity: 'error', file, message: '"description" must be a string', hint: 'Describe in one or two sentences when the model should call this tool.', code: 'invalid-tool-json' });
  } else description = (value.description as string | undefined) ?? '';
  if (!description) diagnostics.push({ severity: 'warning', file, message: '"description" is empty', hint: 'The model decides whether to call a tool from its description; write one.', code: 'no-description' });
  const checked = checkParametersSchema(value.parameters, file);
  diagnostics.push(...checked.diagnostics);
  let timeoutS = SCRIPT_DEFAULT_TIMEOUT_S;
  if (value.timeout !== undefined) {
    if (typeof value.timeout !== 'number' || !(value.timeout > 0)) {
      diagnostics.push({ severity: 'error', file, message: `"timeout" must be a positive number of seconds (found ${JSON.stringify(value.timeout)})`, hint: `Remove it for the default ${SCRIPT_DEFAULT_TIMEOUT_S} s, or write e.g. "timeout": 120.`, code: 'invalid-tool-json' });
    } else if (value.timeout > SCRIPT_MAX_TIMEOUT_S) {
      diagnostics.push({ severity: 'warning', file, message: `"timeout" ${value.timeout} s is above the ${SCRIPT_MAX_TIMEOUT_S} s limit; ${SCRIPT_MAX_TIMEOUT_S} s applies`, code: 'timeout-clamped' });
      timeoutS = SCRIPT_MAX_TIMEOUT_S;
    } else timeoutS = value.timeout;
  }
  if (value.always_allow !== undefined && typeof value.always_allow !== 'boolean') {
    diagnostics.push({ severity: 'warning', file, message: '"always_allow" must be true or false; the tool will ask before running', code: 'invalid-tool-json' });
  }
  const secrets = stringList(value.secrets);
  if (value.secrets !== undefined && secrets === null) {
    diagnostics.push({ severity: 'error', file, message: '"secrets" must be an array of key names', hint: 'Write "secrets": ["POLYGON_API_KEY"].', code: 'invalid-tool-json' });
  }
  return {
    manifest: {
      name,
      description,
      parameters: checked.schema,
      alwaysAllow: value.always_allow === true,
      timeoutS,
      secrets: secrets ?? [],
      network: value.network !== false,
      raw: value,
    },
    diagnostics,
  };
}

function stringList(value: unknown): string[] | null {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return null;
}

export function toSnakeCase(text: string): string {
  const snake = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return /^[a-z]/.test(snake) ? snake : `tool_${snake}`;
}
