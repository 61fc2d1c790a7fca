// Parses Python `str.format` templates ({name}, {name!r}, {name:spec}, {{ and }} literal) into
// segments, reporting the same mistakes Python would, with line and column.
import { lineColumnAt } from '../files/read-json-file.ts';

export type TemplateSegment =
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: string; accessors?: FieldAccessor[]; conversion?: 'r' | 's' | 'a'; spec?: string; raw: string; offset: number; line: number; column: number };

/** `{items[0]}`, `{cfg[key]}`, `{x.attr}`: what str.format looks up in the argument `name`. */
export type FieldAccessor = { kind: 'index'; key: string | number } | { kind: 'attribute'; name: string };

export interface TemplateProblem {
  offset: number;
  line: number;
  column: number;
  /** `literal-brace`: a `{…}` whose content is not a placeholder name (a dict or set literal). */
  kind: 'single-close' | 'unclosed' | 'literal-brace';
  message: string;
  /** The field's text as written (for literal-brace), to quote in messages. */
  raw?: string;
  /** What Python's str.format would call the missing key. */
  fieldName?: string;
}

export interface ParsedTemplate {
  segments: TemplateSegment[];
  problems: TemplateProblem[];
}

const IDENTIFIER = /^[A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*$/u;

export function isPlaceholderName(name: string): boolean {
  return IDENTIFIER.test(name);
}

export function parseFormatTemplate(template: string): ParsedTemplate {
  const segments: TemplateSegment[] = [];
  const problems: TemplateProblem[] = [];
  let text = '';
  const flush = () => {
    if (text) segments.push({ kind: 'text', text });
    text = '';
  };
  const problem = (offset: number, kind: TemplateProblem['kind'], message: string, extra: Partial<TemplateProblem> = {}) =>
    problems.push({ offset, ...lineColumnAt(template, offset), kind, message, ...extra });
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === '{' && template[i + 1] === '{') {
      text += '{';
      i += 2;
      continue;
    }
    if (c === '}') {
      if (template[i + 1] === '}') {
        text += '}';
        i += 2;
        continue;
      }
      problem(i, 'single-close', "Single '}' encountered");
      text += '}';
      i++;
      continue;
    }
    if (c !== '{') {
      text += c;
      i++;
      continue;
    }
    const end = matchingBrace(template, i);
    if (end < 0) {
      problem(i, 'unclosed', "'{' is never closed");
      text += template.slice(i);
      break;
    }
    const raw = template.slice(i, end + 1);
    const inner = raw.slice(1, -1);
    const split = /^([^!:]*)(?:!([^:]*))?(?::(.*))?$/s.exec(inner)!;
    const fieldName = split[1]!;
    const field = parseFieldName(fieldName);
    const conversion = split[2];
    const spec = split[3];
    if (!field || (conversion !== undefined && !['r', 's', 'a'].includes(conversion))) {
      problem(i, 'literal-brace', `'${firstLine(raw)}' is read as a placeholder named ${JSON.stringify(fieldName)}`, { raw, fieldName });
      text += raw;
      i = end + 1;
      continue;
    }
    flush();
    segments.push({
      kind: 'field',
      name: field.name,
      ...(field.accessors.length ? { accessors: field.accessors } : {}),
      ...(conversion ? { conversion: conversion as 'r' | 's' | 'a' } : {}),
      ...(spec !== undefined ? { spec } : {}),
      raw,
      offset: i,
      ...lineColumnAt(template, i),
    });
    i = end + 1;
  }
  flush();
  return { segments, problems };
}

const FIELD_NAME = /^([^.[]+)((?:\.[^.[]+|\[[^\]]+\])*)$/u;
const ACCESSOR = /\.([^.[]+)|\[([^\]]+)\]/gu;

/** Python's field_name: arg_name ("." attribute | "[" index "]")*; an all-digit index is a number. */
function parseFieldName(text: string): { name: string; accessors: FieldAccessor[] } | null {
  const match = FIELD_NAME.exec(text);
  if (!match || !isPlaceholderName(match[1]!)) return null;
  const accessors: FieldAccessor[] = [];
  for (const [, attribute, index] of match[2]!.matchAll(ACCESSOR)) {
    if (attribute !== undefined) {
      if (!isPlaceholderName(attribute)) return null;
      accessors.push({ kind: 'attribute', name: attribute });
    } else accessors.push({ kind: 'index', key: /^\d+$/.test(index!) ? Number(index) : index! });
  }
  return { name: match[1]!, accessors };
}

/** Index of the `}` closing the field opened at `start` (fields nest once, in format specs). */
function matchingBrace(template: string, start: number): number {
  let depth = 0;
  for (let i = start; i < template.length; i++) {
    const c = template[i];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

