// A small PowerShell tokenizer: enough structure (comments, strings, brackets, words,
// variables) to find top-level functions, their help and their param() blocks without pwsh.

export type PsTokenKind = 'blockComment' | 'lineComment' | 'string' | 'open' | 'close' | 'word' | 'variable' | 'comma' | 'equals' | 'newline' | 'other';

export interface PsToken {
  kind: PsTokenKind;
  text: string;
  start: number;
  end: number;
  /** 1-based line and column of the token's start. */
  line: number;
  column: number;
}

const WORD = /[A-Za-z0-9_\-.:\\]/;
const VARIABLE = /[A-Za-z0-9_:?]/;

export function tokenizePowerShell(source: string): PsToken[] {
  const tokens: PsToken[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const push = (kind: PsTokenKind, start: number, end: number, startLine: number, startColumn: number) =>
    tokens.push({ kind, text: source.slice(start, end), start, end, line: startLine, column: startColumn });
  /** Advances to `end`, counting the newlines passed. */
  const advance = (end: number) => {
    for (let k = i; k < end && k < source.length; k++) {
      if (source[k] === '\n') {
        line++;
        lineStart = k + 1;
      }
    }
    i = Math.min(end, source.length);
  };
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    const startLine = line;
    const startColumn = i - lineStart + 1;
    const start = i;
    if (c === '\n') {
      advance(i + 1);
      push('newline', start, i, startLine, startColumn);
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\uFEFF') {
      i++;
    } else if (c === '`') {
      advance(i + 2); // escape / line continuation
    } else if (c === '<' && next === '#') {
      const close = source.indexOf('#>', i + 2);
      advance(close === -1 ? source.length : close + 2);
      push('blockComment', start, i, startLine, startColumn);
    } else if (c === '#') {
      const eol = source.indexOf('\n', i);
      advance(eol === -1 ? source.length : eol);
      push('lineComment', start, i, startLine, startColumn);
    } else if (c === '@' && (next === "'" || next === '"') && /^[ \t]*\r?\n/.test(source.slice(i + 2, i + 200))) {
      const terminator = new RegExp(`\\n[ \\t]*${next}@`, 'g');
      terminator.lastIndex = i + 2;
      const found = terminator.exec(source);
      advance(found ? found.index + found[0].length : source.length);
      push('string', start, i, startLine, startColumn);
    } else if (c === "'") {
      let k = i + 1;
      for (; k < source.length; k++) {
        if (source[k] === "'") {
          if (source[k + 1] === "'") k++;
          else break;
        }
      }
      advance(k + 1);
      push('string', start, i, startLine, startColumn);
    } else if (c === '"') {
      let k = i + 1;
      for (; k < source.length; k++) {
        if (source[k] === '`') k++;
        else if (source[k] === '"') {
          if (source[k + 1] === '"') k++;
          else break;
        }
      }
      advance(k + 1);
      push('string', start, i, startLine, startColumn);
    } else if (c === '@' && (next === '(' || next === '{')) {
      advance(i + 2);
      push('open', start, i, startLine, startColumn);
    } else if (c === '(' || c === '{' || c === '[') {
      advance(i + 1);
      push('open', start, i, startLine, startColumn);
    } else if (c === ')' || c === '}' || c === ']') {
      advance(i + 1);
      push('close', start, i, startLine, startColumn);
    } else if (c === ',') {
      advance(i + 1);
      push('comma', start, i, startLine, startColumn);
    } else if (c === '=' && next !== '=') {
      advance(i + 1);
      push('equals', start, i, startLine, startColumn);
    } else if (c === '$') {
      let k = i + 1;
      if (source[k] === '{') {
        const close = source.indexOf('}', k);
        k = close === -1 ? source.length : close + 1;
      } else {
        while (k < source.length && VARIABLE.test(source[k]!)) k++;
      }
      advance(k);
      push('variable', start, i, startLine, startColumn);
    } else if (WORD.test(c)) {
      let k = i;
      while (k < source.length && WORD.test(source[k]!)) k++;
      advance(k);
      push('word', start, i, startLine, startColumn);
    } else {
      advance(i + 1);
      push('other', start, i, startLine, startColumn);
    }
  }
  return tokens;
}

/** Index of the token closing the bracket opened at `openIndex` (or the last token). */
export function matchingClose(tokens: PsToken[], openIndex: number): number {
  let depth = 0;
  for (let k = openIndex; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'open') depth++;
    else if (t.kind === 'close' && --depth === 0) return k;
  }
  return tokens.length - 1;
}
