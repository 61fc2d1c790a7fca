// Python's format-spec mini-language (`{x:>8}`, `{n:05d}`, `{f:,.2f}`, `{s:.10}`) for the values
// Astrion templates format: strings and numbers. Undefined means "Python would not format this
// value with this spec" (or a case kept out on purpose: bool, the `g`/`n`/`c` types).
const SPEC = /^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bdeEfFosxX%])?$/su;

export function formatWithSpec(value: unknown, spec: string): string | undefined {
  if (spec === '') return undefined;
  const m = SPEC.exec(spec);
  if (!m) return undefined;
  const [, fill0, align0, sign, alt, zero, width, grouping, precision, type] = m;
  let fill = fill0 ?? ' ';
  let align = align0;
  if (zero && !align0) {
    fill = '0';
    align = '=';
  }
  const prec = precision === undefined ? undefined : Number(precision);
  let body: string;
  let prefix = '';
  if (typeof value === 'string') {
    if ((type && type !== 's') || sign || alt || grouping || align === '=') return undefined;
    body = prec === undefined ? value : [...value].slice(0, prec).join('');
    align ??= '<';
  } else if (typeof value === 'number' && Number.isFinite(value)) {
    const digits = formatNumber(Math.abs(value), Number.isInteger(value), type, prec, alt !== undefined);
    if (digits === undefined) return undefined;
    body = grouping ? group(digits, grouping) : digits;
    prefix = value < 0 || Object.is(value, -0) ? '-' : sign === '+' ? '+' : sign === ' ' ? ' ' : '';
    align ??= '>';
  } else return undefined;
  const pad = Math.max(0, Number(width ?? 0) - [...prefix, ...body].length);
  if (align === '=') return prefix + fill.repeat(pad) + body;
  const text = prefix + body;
  if (align === '<') return text + fill.repeat(pad);
  if (align === '^') return fill.repeat(Math.floor(pad / 2)) + text + fill.repeat(Math.ceil(pad / 2));
  return fill.repeat(pad) + text;
}

function formatNumber(n: number, isInt: boolean, type: string | undefined, prec: number | undefined, alt: boolean): string | undefined {
  switch (type) {
    case undefined:
      if (prec !== undefined) return undefined;
      return isInt ? String(n) : pythonFloatRepr(n);
    case 'd':
      return isInt && prec === undefined ? String(n) : undefined;
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      if (!isInt || prec !== undefined) return undefined;
      const text = n.toString(type === 'b' ? 2 : type === 'o' ? 8 : 16);
      const out = (alt ? `0${type}` : '') + text;
      return type === 'X' ? out.toUpperCase() : out;
    }
    case 'f':
    case 'F':
      return n.toFixed(prec ?? 6);
    case '%':
      return `${(n * 100).toFixed(prec ?? 6)}%`;
    case 'e':
    case 'E': {
      // JS writes 1.5e+2; Python 1.500000e+02 (at least two exponent digits).
      const text = n.toExponential(prec ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
      return type === 'E' ? text.toUpperCase() : text;
    }
    default:
      return undefined;
  }
}

/** str(float) in Python: always a decimal point or an exponent (`2.0`, `1e+16`). */
function pythonFloatRepr(n: number): string {
  const text = String(n);
  if (/e/.test(text)) return text.replace(/e([+-])(\d)$/, 'e$10$2');
  return text.includes('.') ? text : `${text}.0`;
}

function group(digits: string, separator: string): string {
  const [whole, rest] = splitAt(digits);
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator) + rest;
}

function splitAt(digits: string): [string, string] {
  const i = digits.search(/[^\d]/);
  return i === -1 ? [digits, ''] : [digits.slice(0, i), digits.slice(i)];
}
