// Turns JSON values into Python source text: literals for bare code, escaped text for the inside
// of a given string literal. The escaping is what makes three-layer substitution injection-proof.
import type { StringContext } from './quote-contexts.ts';

/** Python `str(value)` for a JSON value (what str.format inserts). */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  return pythonLiteral(value);
}

/**
 * Python source for a JSON value: numbers, True/False/None, quoted strings, lists, dicts.
 * `quote` renders strings (inside an f-string expression they must avoid backslashes and quotes).
 */
export function pythonLiteral(value: unknown, quote: (text: string) => string = quotePython): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return "float('nan')";
    if (!Number.isFinite(value)) return value > 0 ? "float('inf')" : "-float('inf')";
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return `[${value.map((v) => pythonLiteral(v, quote)).join(', ')}]`;
  if (typeof value === 'object') {
    const items = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${quote(k)}: ${pythonLiteral(v, quote)}`);
    return `{${items.join(', ')}}`;
  }
  return quote(String(value));
}

/**
 * A string expression with no backslash and none of `forbidden` quotes, for use inside an
 * f-string's {expression} on any Python 3 version.
 */
export function quoteWithout(forbidden: string[]): (text: string) => string {
  const free = ["'", '"'].find((q) => !forbidden.includes(q));
  return (text) => {
    if (free && /^[^\\'"\x00-\x1f\x7f]*$/.test(text) && !/[\ud800-\udfff]/.test(text)) return `${free}${text}${free}`;
    if (free) return `bytes.fromhex(${free}${Buffer.from(text, 'utf8').toString('hex')}${free}).decode()`;
    const codes = [...text].map((c) => c.codePointAt(0)).join(',');
    return `str().join(map(chr,(${codes},)))`;
  };
}

const PLAIN_STRING: StringContext = { kind: 'string', quote: "'", triple: false, raw: false, bytes: false, f: false, prefix: '' };

export function quotePython(text: string): string {
  return `'${escapeForString(text, PLAIN_STRING)}'`;
}

/** Python's repr() of a value as text (`{x!r}`): a str with a ' and no " gets double quotes. */
export function pythonRepr(value: unknown): string {
  if (typeof value !== 'string' || !value.includes("'") || value.includes('"')) return pythonLiteral(value);
  return `"${escapeForString(value, { ...PLAIN_STRING, quote: '"' })}"`;
}

/** Escapes `text` for the inside of a non-raw literal of the given kind. */
export function escapeForString(text: string, ctx: StringContext): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const c = text[i]!;
    if (c === '\\') out += '\\\\';
    else if (c === "'" || c === '"') out += c === ctx.quote ? `\\${c}` : c;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (ctx.f && c === '{') out += '{{';
    else if (ctx.f && c === '}') out += '}}';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (ctx.bytes && code > 0x7f) {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const byte of Buffer.from(String.fromCodePoint(cp), 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += c + text[i + 1];
        i++;
      } else out += `\\u${code.toString(16)}`; // a lone surrogate cannot be written as UTF-8
    } else out += c;
  }
  return out;
}

/** True when `text` can sit inside the raw literal unchanged (raw strings cannot escape anything). */
function fitsRaw(text: string, ctx: StringContext): boolean {
  for (const c of text) {
    if (c === '\\' || c === ctx.quote || c === '\n' || c === '\r') return false;
    if (ctx.f && (c === '{' || c === '}')) return false;
    if (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) return false;
    if (ctx.bytes && c.charCodeAt(0) > 0x7f) return false;
  }
  return true;
}

/**
 * Text to put where a placeholder sits inside a string literal. A raw literal that cannot hold
 * the value is closed, the value inserted as an adjacent escaped literal (Python concatenates
 * adjacent literals), and the raw literal reopened.
 */
export function textForString(text: string, ctx: StringContext): string {
  if (!ctx.raw) return escapeForString(text, ctx);
  if (fitsRaw(text, ctx)) return text;
  const q = ctx.triple ? ctx.quote.repeat(3) : ctx.quote;
  const inner: StringContext = { ...ctx, raw: false, f: false, triple: false, prefix: ctx.bytes ? 'b' : '' };
  return `${q} ${inner.prefix}${ctx.quote}${escapeForString(text, inner)}${ctx.quote} ${ctx.prefix}${q}`;
}
