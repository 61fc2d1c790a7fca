// The static PowerShell parser (no pwsh needed): top-level functions → tools, comment-based
// help → descriptions, param() → JSON Schema, `# TOOL_CONFIG: {json}` → group permissions.
// resources/powershell/parse.ps1 produces the same output from PowerShell's own AST.
import type { JsonSchema } from '../../../../shared/tools.ts';
import type { CachedDiagnostic, CachedTool } from '../cached-modules/cache.ts';
import type { PsHelp } from './help.ts';
import { helpDescription, isHelpComment, parseHelp } from './help.ts';
import type { PsToken } from './tokens.ts';
import { matchingClose, tokenizePowerShell } from './tokens.ts';

export interface ParsedPowerShellModule {
  rulePrompt: string;
  tools: CachedTool[];
  /** The parsed `# TOOL_CONFIG:` object, raw (legacy keys are read later). */
  toolConfig: Record<string, unknown> | null;
  diagnostics: CachedDiagnostic[];
  /** Set when the script cannot be parsed (unbalanced brackets): it yields no tools. */
  error?: CachedDiagnostic;
}

interface PsFunction {
  name: string;
  line: number;
  column: number;
  help?: PsHelp;
  params: PsToken[] | null;
  outputType?: string;
}

const NOT_TOOLS = /^(_|Internal-|Format-)/i;

export function parsePowerShellSource(source: string): ParsedPowerShellModule {
  const tokens = tokenizePowerShell(source);
  const unbalanced = findUnbalanced(tokens);
  if (unbalanced) return { rulePrompt: '', tools: [], toolConfig: null, diagnostics: [], error: unbalanced };
  const diagnostics: CachedDiagnostic[] = [];
  const functions: PsFunction[] = [];
  let toolConfig: Record<string, unknown> | null = null;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'open') depth++;
    else if (t.kind === 'close') depth = Math.max(0, depth - 1);
    else if (depth === 0 && t.kind === 'lineComment') {
      const config = /^#\s*TOOL_CONFIG\s*:\s*(.*)$/i.exec(t.text.trim());
      if (config) {
        try {
          const value = JSON.parse(config[1]!) as unknown;
          if (value && typeof value === 'object' && !Array.isArray(value)) toolConfig = value as Record<string, unknown>;
          else throw new Error('not an object');
        } catch (error) {
          diagnostics.push({ severity: 'warning', line: t.line, column: t.column, code: 'bad-tool-config', message: `# TOOL_CONFIG is not a JSON object: ${(error as Error).message}`, hint: 'Write it on one line, e.g. # TOOL_CONFIG: {"executionPolicy": "ask-once"}' });
        }
      } else if (/^#\s*TOOL_CONFIG\b/i.test(t.text.trim())) {
        // `# TOOL_CONFIG = {…}` and the like would otherwise be ignored without a word.
        diagnostics.push({ severity: 'warning', line: t.line, column: t.column, code: 'bad-tool-config', message: '# TOOL_CONFIG needs a colon before its JSON; the line is ignored', hint: 'Write it on one line, e.g. # TOOL_CONFIG: {"executionPolicy": "ask-once"}' });
      }
    } else if (depth === 0 && t.kind === 'word' && /^(function|filter)$/i.test(t.text)) {
      const fn = readFunction(tokens, i);
      if (fn) {
        functions.push(fn.fn);
        i = fn.end; // skip the body: functions nested in it are not tools
      }
    }
  }

  const byName = new Map<string, PsFunction>();
  for (const fn of functions) {
    const previous = byName.get(fn.name.toLowerCase());
    if (previous) {
      diagnostics.push({ severity: 'warning', line: fn.line, column: fn.column, code: 'duplicate-function', message: `Function ${fn.name} is defined again (first at line ${previous.line}); the last definition is the one that runs`, hint: 'Rename or remove one of the definitions.' });
    }
    byName.set(fn.name.toLowerCase(), fn);
  }
  const tools: CachedTool[] = [];
  for (const fn of byName.values()) {
    if (NOT_TOOLS.test(fn.name)) continue;
    tools.push(toTool(fn, byName, source, diagnostics));
  }
  if (tools.length === 0) {
    diagnostics.push({ severity: 'warning', line: 1, code: 'empty-module', message: 'No tools: the script defines no top-level function that is a tool', hint: 'Define a function (not named _*, Internal-* or Format-*); it becomes a tool.' });
  }
  return { rulePrompt: scriptHelp(tokens), tools, toolConfig, diagnostics };
}

const PAIRS: Record<string, string> = { '(': ')', '@(': ')', '{': '}', '@{': '}', '[': ']' };

/** The first bracket that is never closed, or closed by the wrong kind, as a syntax error. */
function findUnbalanced(tokens: PsToken[]): CachedDiagnostic | null {
  const stack: PsToken[] = [];
  const error = (t: PsToken, message: string): CachedDiagnostic => ({ severity: 'error', line: t.line, column: t.column, code: 'syntax-error', message: `Syntax error: ${message}`, hint: 'Fix the brackets; the module is skipped until then.' });
  for (const t of tokens) {
    if (t.kind === 'open') stack.push(t);
    else if (t.kind === 'close') {
      const open = stack.pop();
      if (!open) return error(t, `unexpected '${t.text}'`);
      if (PAIRS[open.text] !== t.text) return error(t, `'${t.text}' closes the '${open.text}' opened at line ${open.line}`);
    }
  }
  const open = stack[0];
  return open ? error(open, `'${open.text}' is never closed`) : null;
}

/** Script-level help: a help comment at the top that is not the first function's own help. */
function scriptHelp(tokens: PsToken[]): string {
  let k = 0;
  while (k < tokens.length && (tokens[k]!.kind === 'newline' || (tokens[k]!.kind === 'lineComment' && !isHelpComment(tokens[k]!.text)))) k++;
  const comment = collectComment(tokens, k);
  if (!comment || !isHelpComment(comment.text)) return '';
  // PowerShell: help right before a function (fewer than two blank lines) belongs to the function.
  let newlines = 0;
  let j = comment.next;
  while (j < tokens.length && tokens[j]!.kind === 'newline') {
    newlines++;
    j++;
  }
  const following = tokens[j];
  if (following && following.kind === 'word' && /^(function|filter)$/i.test(following.text) && newlines < 3) return '';
  return helpDescription(parseHelp(comment.text));
}

/** A block comment, or consecutive `#` lines, starting at `k`. */
function collectComment(tokens: PsToken[], k: number): { text: string; next: number } | null {
  const first = tokens[k];
  if (!first) return null;
  if (first.kind === 'blockComment') return { text: first.text, next: k + 1 };
  if (first.kind !== 'lineComment') return null;
  const lines: string[] = [];
  let j = k;
  while (tokens[j]?.kind === 'lineComment') {
    lines.push(tokens[j]!.text);
    j += tokens[j + 1]?.kind === 'newline' && tokens[j + 2]?.kind === 'lineComment' ? 2 : 1;
  }
  return { text: lines.join('\n'), next: j };
}

/** The help comment ending right before token `k` (at most one blank line between). */
function helpBefore(tokens: PsToken[], k: number): PsHelp | undefined {
  let j = k - 1;
  let newlines = 0;
  while (j >= 0 && tokens[j]!.kind === 'newline') {
    newlines++;
    j--;
  }
  if (j < 0 || newlines > 2) return undefined;
  const t = tokens[j]!;
  if (t.kind === 'blockComment' && isHelpComment(t.text)) return parseHelp(t.text);
  if (t.kind === 'lineComment') {
    const lines: string[] = [];
    while (j >= 0 && tokens[j]!.kind === 'lineComment') {
      lines.unshift(tokens[j]!.text);
      j -= tokens[j - 1]?.kind === 'newline' && tokens[j - 2]?.kind === 'lineComment' ? 2 : 1;
    }
    const text = lines.join('\n');
    if (isHelpComment(text)) return parseHelp(text);
  }
  return undefined;
}

function readFunction(tokens: PsToken[], at: number): { fn: PsFunction; end: number } | null {
  let k = at + 1;
  const nameToken = tokens[k];
  if (!nameToken || nameToken.kind !== 'word') return null;
  const name = nameToken.text.replace(/^(global|script|local|private):/i, '');
  k++;
  let inlineParams: PsToken[] | null = null;
  while (tokens[k]?.kind === 'newline') k++;
  if (tokens[k]?.text === '(') {
    const close = matchingClose(tokens, k);
    inlineParams = tokens.slice(k + 1, close);
    k = close + 1;
  }
  while (tokens[k]?.kind === 'newline') k++;
  if (tokens[k]?.text !== '{') return null;
  const bodyEnd = matchingClose(tokens, k);
  const body = tokens.slice(k + 1, bodyEnd);
  const fn: PsFunction = { name, line: tokens[at]!.line, column: tokens[at]!.column, params: inlineParams };
  fn.help = helpBefore(tokens, at);

  let b = 0;
  const skipTrivia = () => {
    while (b < body.length && (body[b]!.kind === 'newline' || (body[b]!.kind === 'lineComment' && !isHelpComment(body[b]!.text)))) b++;
  };
  skipTrivia();
  const inner = collectComment(body, b);
  if (inner && isHelpComment(inner.text)) {
    fn.help ??= parseHelp(inner.text);
    b = inner.next;
  }
  if (!fn.help) {
    const last = [...body].reverse().find((t) => t.kind !== 'newline');
    if (last?.kind === 'blockComment' && isHelpComment(last.text)) fn.help = parseHelp(last.text);
  }
  // Attributes before param(): [CmdletBinding()], [OutputType([string])].
  for (;;) {
    skipTrivia();
    if (body[b]?.text !== '[') break;
    const close = matchingClose(body, b);
    const text = body.slice(b + 1, close).map((t) => t.text).join('');
    const output = /^OutputType\(\[?([^\]\)]+)\]?\)$/i.exec(text);
    if (output) fn.outputType = output[1]!.replace(/^['"]|['"]$/g, '');
    b = close + 1;
  }
  skipTrivia();
  if (!inlineParams && /^param$/i.test(body[b]?.text ?? '') && body[b + 1]?.text === '(') {
    const close = matchingClose(body, b + 1);
    fn.params = body.slice(b + 2, close);
  }
  return { fn, end: bodyEnd };
}

interface PsParam {
  name: string;
  type?: string;
  mandatory: boolean;
  validateSet?: unknown[];
  range?: [number, number];
  defaultText?: string;
  comment?: string;
}

/** Splits a param() token list at top-level commas and reads each parameter. */
function readParams(tokens: PsToken[], source: (t: PsToken[]) => string): PsParam[] {
  const segments: PsToken[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'open') depth++;
    if (t.kind === 'close') depth--;
    if (t.kind === 'comma' && depth === 0) segments.push([]);
    else segments.at(-1)!.push(t);
  }
  const params: PsParam[] = [];
  for (const segment of segments) {
    const comments: string[] = [];
    const param: PsParam = { name: '', mandatory: false };
    let k = 0;
    for (; k < segment.length; k++) {
      const t = segment[k]!;
      if (t.kind === 'newline') continue;
      if (t.kind === 'lineComment') {
        comments.push(t.text.replace(/^#\s?/, '').trim());
        continue;
      }
      if (t.kind === 'blockComment') continue;
      if (t.text === '[') {
        const close = matchingClose(segment, k);
        readAttribute(source(segment.slice(k + 1, close)), param);
        k = close;
        continue;
      }
      if (t.kind === 'variable') {
        param.name = t.text.replace(/^\$\{?|\}$/g, '');
        const eq = segment.findIndex((x, j) => j > k && x.kind === 'equals');
        if (eq !== -1) param.defaultText = source(segment.slice(eq + 1).filter((x) => x.kind !== 'lineComment' && x.kind !== 'blockComment')).trim();
        break;
      }
    }
    if (!param.name) continue;
    if (comments.length) param.comment = comments.join(' ');
    params.push(param);
  }
  return params;
}

function readAttribute(text: string, param: PsParam): void {
  const compact = text.trim();
  const call = /^([A-Za-z.]+)\s*\(([\s\S]*)\)$/.exec(compact);
  if (!call) {
    param.type = compact;
    return;
  }
  const [, name, inner] = call as unknown as [string, string, string];
  const attribute = name.toLowerCase().replace(/^system\.management\.automation\./, '');
  if (attribute === 'parameter') {
    const mandatory = /\bMandatory\b(\s*=\s*\$(\w+))?/i.exec(inner);
    if (mandatory && !/^(false|0)$/i.test(mandatory[2] ?? 'true')) param.mandatory = true;
  } else if (attribute === 'validateset') {
    param.validateSet = splitLiterals(inner).map(literalValue).filter((v) => v !== undefined);
  } else if (attribute === 'validaterange') {
    const [min, max] = splitLiterals(inner).map(Number);
    if (Number.isFinite(min) && Number.isFinite(max)) param.range = [min!, max!];
  }
}

function splitLiterals(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      current += c;
      if (c === quote) {
        if (text[i + 1] === quote) current += text[++i];
        else quote = null;
      }
    } else if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (c === ',') {
      parts.push(current.trim());
      current = '';
    } else current += c;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** A PowerShell literal's JSON value, or undefined when it is an expression. */
export function literalValue(text: string): unknown {
  const t = text.trim();
  if (/^'([^']|'')*'$/.test(t)) return t.slice(1, -1).replace(/''/g, "'");
  if (/^"([^"`$]|"")*"$/.test(t)) return t.slice(1, -1).replace(/""/g, '"');
  if (/^\$true$/i.test(t)) return true;
  if (/^\$false$/i.test(t)) return false;
  if (/^-?\d+$/.test(t)) return Number(t);
  if (/^-?\d*\.\d+$/.test(t)) return Number(t);
  const array = /^@\(([\s\S]*)\)$/.exec(t);
  if (array) {
    const values = splitLiterals(array[1]!.replace(/\r?\n/g, ',')).filter(Boolean).map(literalValue);
    return values.every((v) => v !== undefined) ? values : undefined;
  }
  return undefined;
}

/** `[int]` → {type: integer} … as the issue lists; anything else is a string. */
export function psTypeSchema(type: string | undefined): JsonSchema {
  if (!type) return { type: 'string' };
  const t = type.replace(/\s/g, '').replace(/^System\./i, '');
  const array = /^(.*)\[\]$/.exec(t);
  if (array) return { type: 'array', items: psTypeSchema(array[1]) };
  const nullable = /^Nullable\[(.*)\]$/i.exec(t);
  if (nullable) return psTypeSchema(nullable[1]);
  const lower = t.toLowerCase();
  if (['int', 'int16', 'int32', 'int64', 'long', 'short', 'byte', 'sbyte', 'uint16', 'uint32', 'uint64', 'bigint', 'numerics.biginteger'].includes(lower)) return { type: 'integer' };
  if (['double', 'single', 'float', 'decimal'].includes(lower)) return { type: 'number' };
  if (['bool', 'boolean', 'switch', 'management.automation.switchparameter'].includes(lower)) return { type: 'boolean' };
  if (['hashtable', 'collections.hashtable', 'pscustomobject', 'psobject', 'ordered', 'collections.specialized.ordereddictionary'].includes(lower)) return { type: 'object' };
  if (['array', 'object[]'].includes(lower)) return { type: 'array' };
  return { type: 'string' };
}

function toTool(fn: PsFunction, byName: Map<string, PsFunction>, text: string, diagnostics: CachedDiagnostic[]): CachedTool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const source = (ts: PsToken[]) => (ts.length ? text.slice(ts[0]!.start, ts.at(-1)!.end) : '');
  for (const param of readParams(fn.params ?? [], source)) {
    const schema: JsonSchema = psTypeSchema(param.type);
    if (param.validateSet && param.validateSet.length > 0) schema.enum = param.validateSet;
    if (param.range && (schema.type === 'integer' || schema.type === 'number')) {
      schema.minimum = param.range[0];
      schema.maximum = param.range[1];
    }
    const description = fn.help?.parameters[param.name.toLowerCase()] || param.comment;
    if (description) schema.description = description;
    if (param.defaultText !== undefined) {
      const value = literalValue(param.defaultText);
      if (value !== undefined) schema.default = value;
      else if (!/^\$null$/i.test(param.defaultText)) diagnostics.push({ severity: 'info', line: fn.line, code: 'default-not-literal', message: `Default of ${fn.name} -${param.name} (${param.defaultText}) is an expression; it is left out of the schema` });
    }
    properties[param.name] = schema;
    if (param.mandatory) required.push(param.name);
  }
  const parameters: JsonSchema = { type: 'object', properties };
  if (required.length) parameters.required = required;
  const tool: CachedTool = { type: 'function', function: { name: fn.name, description: fn.help ? helpDescription(fn.help) : '', parameters }, line: fn.line };
  const outputs = fn.help?.outputs;
  if (outputs || fn.outputType) {
    const [first, ...rest] = (outputs ?? '').split('\n');
    tool.declaredReturnType = { type: fn.outputType ?? (first ?? '').trim() };
    const note = (fn.outputType ? outputs : rest.join('\n'))?.trim();
    if (note) tool.declaredReturnType.note = note;
  }
  const formatter = byName.get(`format-${fn.name.toLowerCase()}`);
  if (formatter) tool.formatter = formatter.name;
  return tool;
}
