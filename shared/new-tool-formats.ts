// The formats a new tool can be made in: one list for `tooldesk tools new`, the API's createTool
// and the Tools panel's "New tool" form. Each has its template in resources/templates/<format>/.
import type { ToolFormat } from './tools.ts';

export const NEW_TOOL_FORMATS = ['python', 'open-webui', 'powershell', 'script-py', 'script-js', 'three-layer', 'module-ts', 'module-js'] as const;
export type NewToolFormat = (typeof NEW_TOOL_FORMATS)[number];

export interface NewToolFormatInfo {
  /** What the "New tool" form offers. */
  label: string;
  /** The format the tool loads as (the Tools panel's badge). */
  loadsAs: Exclude<ToolFormat, 'builtin' | 'mcp'>;
  /** One file `<name><extension>` in the tools folder; absent = a folder `<name>/`. */
  extension?: '.py' | '.ps1' | '.ts' | '.js';
  /** Which names it takes (see NAME_RULES). */
  names: 'snake' | 'id';
}

export const NEW_TOOL_FORMAT_INFO: Record<NewToolFormat, NewToolFormatInfo> = {
  python: { label: 'Python module (one .py file, a tool per function)', loadsAs: 'python', extension: '.py', names: 'snake' },
  'open-webui': { label: 'Open WebUI Tools (one .py file: class Tools, Valves, events)', loadsAs: 'open-webui', extension: '.py', names: 'snake' },
  powershell: { label: 'PowerShell module (one .ps1 file, needs pwsh)', loadsAs: 'powershell', extension: '.ps1', names: 'id' },
  'script-py': { label: 'Script folder, Python (tool.json + script.py)', loadsAs: 'script', names: 'snake' },
  'script-js': { label: 'Script folder, JavaScript (tool.json + script.js)', loadsAs: 'script', names: 'snake' },
  'three-layer': { label: 'Three-layer (definition.json + execution.py + return.json)', loadsAs: 'three-layer', names: 'id' },
  'module-ts': { label: 'Module, TypeScript (a .ts factory, runs in the tool host)', loadsAs: 'module', extension: '.ts', names: 'id' },
  'module-js': { label: 'Module, JavaScript (a .js factory, runs in the tool host)', loadsAs: 'module', extension: '.js', names: 'id' },
};

/** Agenvoy's rule for script tool names (tool.json `name`); Python function names follow it too. */
export const SNAKE_CASE_NAME = /^[a-z][a-z0-9_]*$/;
/** Astrion's rule for three-layer ids; also what module and PowerShell tool names may be. */
export const TOOL_ID_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

export const NAME_RULES: Record<NewToolFormatInfo['names'], { pattern: RegExp; text: string }> = {
  snake: { pattern: SNAKE_CASE_NAME, text: 'snake_case: lower-case letters, digits and _, starting with a letter' },
  id: { pattern: TOOL_ID_NAME, text: 'letters, digits, _ and -, starting with a letter' },
};
export const MAX_NEW_TOOL_NAME = 64;

// A Python function cannot be called `class` or `def`: the file would not even parse.
const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);

/** Why `name` cannot be a new tool of `format` (a sentence naming the rule), or null when it can. */
export function newToolNameProblem(format: NewToolFormat, name: string): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'a name is required';
  if (name.length > MAX_NEW_TOOL_NAME) return `the name is longer than ${MAX_NEW_TOOL_NAME} characters`;
  const rule = NAME_RULES[NEW_TOOL_FORMAT_INFO[format].names];
  if (!rule.pattern.test(name)) return `"${name}" is not a valid ${format} tool name: use ${rule.text}`;
  if ((format === 'python' || format === 'open-webui') && PYTHON_KEYWORDS.has(name)) return `"${name}" is a Python keyword and cannot name a function; choose another name`;
  // PowerShell modules treat these prefixes as helpers and formatters, never as tools.
  if (format === 'powershell' && /^(internal-|format-)/i.test(name)) return `"${name}" would not be a tool: PowerShell functions named Internal-* or Format-* are helpers; choose another name`;
  return null;
}

/** The name the created tool registers under (script tools get Agenvoy's `script_` prefix). */
export function newToolRegisteredName(format: NewToolFormat, name: string): string {
  return NEW_TOOL_FORMAT_INFO[format].loadsAs === 'script' ? `script_${name}` : name;
}
