// Finds, for each placeholder of an execution.py template, the Python lexical context it sits in
// (bare code, a comment, or which kind of string literal), so its value can be escaped for it.
// Works on a skeleton of the template where each placeholder is one marker character.

export const PLACEHOLDER_MARK = '\uE000';

export interface StringContext {
  kind: 'string';
  quote: "'" | '"';
  triple: boolean;
  raw: boolean;
  bytes: boolean;
  f: boolean;
  /** The literal's prefix as written (e.g. `rb`, `f`), to reopen a raw string after a splice. */
  prefix: string;
  /** The template puts a lone backslash right before the placeholder (`'\\{x}'`). */
  afterBackslash?: boolean;
}

/** `fQuotes`: quotes of the f-strings whose {expression} holds the placeholder (no backslashes allowed there before Python 3.12). */
export type QuoteContext = { kind: 'code'; fQuotes?: string[] } | { kind: 'comment' } | StringContext;

type Frame =
  | { type: 'code'; fExpr: boolean; depth: number }
  | { type: 'spec' }
  | ({ type: 'string' } & Omit<StringContext, 'kind'>);

const PREFIXES = new Set(['', 'r', 'u', 'b', 'br', 'rb', 'f', 'fr', 'rf', 't', 'tr', 'rt']);

/** Contexts of each PLACEHOLDER_MARK in `skeleton`, in order. */
export function placeholderContexts(skeleton: string): QuoteContext[] {
  const contexts: QuoteContext[] = [];
  const stack: Frame[] = [{ type: 'code', fExpr: false, depth: 0 }];
  const n = skeleton.length;
  let i = 0;
  let afterBackslash = false;
  while (i < n) {
    const top = stack[stack.length - 1]!;
    const c = skeleton[i]!;
    if (top.type === 'string') {
      const { type: _t, ...ctx } = top;
      if (c === PLACEHOLDER_MARK) {
        contexts.push({ kind: 'string', ...ctx, ...(afterBackslash ? { afterBackslash } : {}) });
        afterBackslash = false;
        i++;
      } else if (c === '\\') {
        // A backslash escapes the next character (in raw strings too, as far as ending goes),
        // but never swallows a placeholder: the renderer neutralises it instead.
        if (skeleton[i + 1] === PLACEHOLDER_MARK) {
          afterBackslash = true;
          i += 1;
        } else i += 2;
      } else if (top.f && c === '{') {
        if (skeleton[i + 1] === '{') i += 2;
        else {
          stack.push({ type: 'code', fExpr: true, depth: 0 });
          i++;
        }
      } else if (top.f && c === '}') {
        i += skeleton[i + 1] === '}' ? 2 : 1;
      } else if (c === top.quote) {
        if (!top.triple) {
          stack.pop();
          i++;
        } else if (skeleton[i + 1] === c && skeleton[i + 2] === c) {
          stack.pop();
          i += 3;
        } else i++;
      } else if ((c === '\n' || c === '\r') && !top.triple) {
        stack.pop(); // unterminated single-line string: Python's error, not ours
        i++;
      } else i++;
      continue;
    }
    if (top.type === 'spec') {
      // Format spec of an f-string field: literal text of the enclosing f-string.
      const fString = stack[stack.length - 3];
      if (c === PLACEHOLDER_MARK) {
        if (fString?.type === 'string') {
          const { type: _t, ...ctx } = fString;
          contexts.push({ kind: 'string', ...ctx });
        } else contexts.push({ kind: 'code' });
        i++;
      } else if (c === '{') {
        stack.push({ type: 'code', fExpr: true, depth: 0 });
        i++;
      } else if (c === '}') {
        stack.pop(); // spec
        stack.pop(); // the field's expression
        i++;
      } else i++;
      continue;
    }
    // code
    if (c === PLACEHOLDER_MARK) {
      const fQuotes = stack.flatMap((f) => (f.type === 'string' ? [f.quote] : []));
      contexts.push(fQuotes.length ? { kind: 'code', fQuotes } : { kind: 'code' });
      i++;
    } else if (c === '#') {
      while (i < n && skeleton[i] !== '\n') {
        if (skeleton[i] === PLACEHOLDER_MARK) contexts.push({ kind: 'comment' });
        i++;
      }
    } else if (c === '"' || c === "'") {
      const prefix = stringPrefixBefore(skeleton, i);
      const lower = prefix.toLowerCase();
      const triple = skeleton[i + 1] === c && skeleton[i + 2] === c;
      stack.push({
        type: 'string',
        quote: c,
        triple,
        raw: lower.includes('r'),
        bytes: lower.includes('b'),
        f: lower.includes('f') || lower.includes('t'),
        prefix,
      });
      i += triple ? 3 : 1;
    } else if (top.fExpr) {
      if (c === '(' || c === '[' || c === '{') top.depth++;
      else if ((c === ')' || c === ']') && top.depth > 0) top.depth--;
      else if (c === '}') {
        if (top.depth > 0) top.depth--;
        else stack.pop();
      } else if (c === ':' && top.depth === 0 && skeleton[i + 1] !== '=') stack.push({ type: 'spec' });
      else if (c === '!' && top.depth === 0 && skeleton[i + 1] !== '=') {
        // conversion (!r): skip the letter; the spec or the closing brace follows
        i += 2;
        continue;
      }
      i++;
    } else i++;
  }
  return contexts;
}

/** The string prefix letters directly before a quote (`rb'…'`), or '' when those letters are an identifier. */
function stringPrefixBefore(text: string, quoteAt: number): string {
  let start = quoteAt;
  while (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1]!)) start--;
  const word = text.slice(start, quoteAt);
  return PREFIXES.has(word.toLowerCase()) ? word : '';
}
