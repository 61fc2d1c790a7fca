// Astrion's execution.py templates (seed 004): str.format semantics, made injection-proof by
// escaping each value for the Python context its placeholder sits in.
import type { Diagnostic, JsonSchema } from '../../../../shared/tools.ts';
import { parseFormatTemplate, type ParsedTemplate, type TemplateSegment } from './format-template.ts';
import { formatWithSpec } from './format-spec.ts';
import { pythonLiteral, pythonRepr, pythonStr, quotePython, quoteWithout, textForString } from './python-literal.ts';
import { PLACEHOLDER_MARK, placeholderContexts, type QuoteContext } from './quote-contexts.ts';

export interface CompiledExecution {
  parsed: ParsedTemplate;
  /** Context of each field segment, in segment order. */
  contexts: QuoteContext[];
  diagnostics: Diagnostic[];
  /** Set when the template cannot run (a literal brace read as a placeholder, a stray brace). */
  brokenMessage?: string;
}

type FieldSegment = Extract<TemplateSegment, { kind: 'field' }>;

export function compileExecution(template: string, schema: JsonSchema, file: string): CompiledExecution {
  const parsed = parseFormatTemplate(template);
  const skeleton = parsed.segments.map((s) => (s.kind === 'text' ? s.text : PLACEHOLDER_MARK)).join('');
  const contexts = placeholderContexts(skeleton);
  const diagnostics: Diagnostic[] = [];
  const broken: string[] = [];
  for (const p of parsed.problems) {
    if (p.kind === 'literal-brace') {
      diagnostics.push({
        severity: 'error',
        file,
        line: p.line,
        column: p.column,
        message: `Unescaped literal brace: ${p.message}`,
        hint: `execution.py is a str.format template: double the braces of dict/set literals, e.g. {{'+': operator.add}} instead of {'+': operator.add}.`,
        code: 'template-literal-brace',
      });
      broken.push(`缺少必填参数: ${JSON.stringify(p.fieldName)}\nexecution.py line ${p.line}: ${p.message}; double the braces of dict/set literals ({{ … }}).`);
    } else {
      diagnostics.push({
        severity: 'error',
        file,
        line: p.line,
        column: p.column,
        message: p.kind === 'single-close' ? "Single '}' in the template" : "'{' is never closed in the template",
        hint: 'Write literal braces doubled: {{ and }}.',
        code: 'template-stray-brace',
      });
      broken.push(`execution.py line ${p.line}: ${p.message}; write literal braces doubled ({{ and }}).`);
    }
  }
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const reported = new Set<string>();
  for (const s of parsed.segments) {
    if (s.kind !== 'field' || s.name in properties || reported.has(s.name)) continue;
    reported.add(s.name);
    diagnostics.push({
      severity: 'warning',
      file,
      line: s.line,
      column: s.column,
      message: `Placeholder {${s.name}} is not a parameter in definition.json`,
      hint: `Declare "${s.name}" under parameters.properties, or, if {${s.name}} is a set literal, write {{${s.name}}}.`,
      code: 'template-unknown-placeholder',
    });
  }
  return { parsed, contexts, diagnostics, ...(broken.length ? { brokenMessage: broken.join('\n') } : {}) };
}

export type RenderResult = { ok: true; code: string } | { ok: false; error: string };

/**
 * Substitutes the arguments. A required argument that is absent → seed 004's error; an absent
 * optional one → its schema default, else an empty value for its context ('' in quotes, None bare).
 */
export function renderExecution(compiled: CompiledExecution, args: Record<string, unknown>, schema: JsonSchema): RenderResult {
  if (compiled.brokenMessage) return { ok: false, error: compiled.brokenMessage };
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  let out = '';
  let fieldIndex = 0;
  for (const segment of compiled.parsed.segments) {
    if (segment.kind === 'text') {
      out += segment.text;
      continue;
    }
    const ctx = compiled.contexts[fieldIndex++] ?? { kind: 'code' as const };
    const present = Object.hasOwn(args, segment.name) && args[segment.name] !== undefined;
    if (!present && (required.has(segment.name) || !(segment.name in properties))) {
      return { ok: false, error: `缺少必填参数: ${segment.name}\nMissing required parameter: ${segment.name}` };
    }
    const schemaDefault = properties[segment.name]?.default;
    const looked = lookUp(present ? args[segment.name] : schemaDefault, segment);
    if (!looked.ok) return looked;
    out += renderValue(looked.value, segment, ctx);
  }
  return { ok: true, code: out };
}

/** `{items[0]}` / `{cfg[key]}` as str.format resolves them, with Astrion's errors when it cannot. */
function lookUp(value: unknown, field: FieldSegment): { ok: true; value: unknown } | { ok: false; error: string } {
  let current = value;
  for (const accessor of field.accessors ?? []) {
    if (accessor.kind === 'attribute') {
      return { ok: false, error: `模板渲染失败: '${pythonTypeName(current)}' object has no attribute '${accessor.name}' ({${field.raw.slice(1, -1)}})` };
    }
    const { key } = accessor;
    if (Array.isArray(current) && typeof key === 'number') {
      if (key >= current.length) return { ok: false, error: `模板渲染失败: list index out of range (${field.raw})` };
      current = current[key];
    } else if (current !== null && typeof current === 'object' && !Array.isArray(current) && typeof key === 'string' && Object.hasOwn(current, key)) {
      current = (current as Record<string, unknown>)[key];
    } else {
      return { ok: false, error: `缺少必填参数: ${JSON.stringify(String(key))}\nMissing key ${JSON.stringify(key)} in ${field.raw}` };
    }
  }
  return { ok: true, value: current };
}

function pythonTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'object') return 'dict';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'str';
}

function renderValue(value: unknown, field: FieldSegment, ctx: QuoteContext): string {
  if (ctx.kind === 'code') {
    if (value === undefined) return 'None';
    // Only a number may take its spec bare: a formatted string here would be code, not data.
    const formatted = typeof value === 'number' && field.spec ? formatWithSpec(value, field.spec) : undefined;
    return formatted ?? pythonLiteral(value, ctx.fQuotes ? quoteWithout(ctx.fQuotes) : quotePython);
  }
  const converted = field.conversion === 'r' || field.conversion === 'a' ? pythonRepr(value) : value;
  const text = value === undefined ? '' : (field.spec ? formatWithSpec(converted, field.spec) : undefined) ?? pythonStr(converted);
  // A comment cannot escape anything: control characters (newlines, NUL) become spaces.
  if (ctx.kind === 'comment') return text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[\ud800-\udfff]/g, (c, i, all) => (isPaired(all, i) ? c : '\ufffd'));
  const body = textForString(text, ctx);
  // A lone template backslash before the placeholder would escape the value's first character;
  // a backslash-newline inside a literal is a harmless continuation (keeps the value intact).
  return ctx.afterBackslash ? `\n${body}` : body;
}

function isPaired(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code <= 0xdbff) return (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
  return (text.charCodeAt(i - 1) & 0xfc00) === 0xd800;
}
