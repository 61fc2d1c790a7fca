import { describe, expect, it } from 'vitest';
import { parseFormatTemplate } from '../../../electron/runtime/sources/three-layer/format-template.ts';
import { formatWithSpec } from '../../../electron/runtime/sources/three-layer/format-spec.ts';
import { pythonLiteral, quoteWithout } from '../../../electron/runtime/sources/three-layer/python-literal.ts';
import { PLACEHOLDER_MARK, placeholderContexts } from '../../../electron/runtime/sources/three-layer/quote-contexts.ts';
import { compileExecution, renderExecution } from '../../../electron/runtime/sources/three-layer/template.ts';
import { returnTemplateProblem, formatReturnTemplate } from '../../../electron/runtime/sources/three-layer/definition.ts';

const contextsOf = (code: string) => placeholderContexts(code.replaceAll('@', PLACEHOLDER_MARK)).map((c) => (c.kind === 'string' ? `${c.prefix}${c.triple ? c.quote.repeat(3) : c.quote}` : c.kind));

describe('str.format template parsing', () => {
  it('splits text and fields and treats doubled braces as literal', () => {
    const parsed = parseFormatTemplate("a = {a}\nd = {{'k': {b!r}}}\nx = {c:.2f}");
    expect(parsed.problems).toEqual([]);
    expect(parsed.segments).toEqual([
      { kind: 'text', text: 'a = ' },
      expect.objectContaining({ kind: 'field', name: 'a', line: 1, column: 5 }),
      { kind: 'text', text: "\nd = {'k': " },
      expect.objectContaining({ kind: 'field', name: 'b', conversion: 'r', line: 2 }),
      { kind: 'text', text: '}\nx = ' },
      expect.objectContaining({ kind: 'field', name: 'c', spec: '.2f', line: 3 }),
    ]);
  });

  it("reports Python's mistakes with line and column: literal braces, a single '}', an unclosed '{'", () => {
    expect(parseFormatTemplate("x = 1\nops = {'+': add}").problems).toEqual([expect.objectContaining({ kind: 'literal-brace', line: 2, column: 7, fieldName: "'+'" })]);
    expect(parseFormatTemplate('s = {1, 2}').problems[0]).toMatchObject({ kind: 'literal-brace', fieldName: '1, 2' });
    expect(parseFormatTemplate('a }').problems[0]).toMatchObject({ kind: 'single-close', line: 1, column: 3 });
    expect(parseFormatTemplate('a {b').problems[0]).toMatchObject({ kind: 'unclosed', column: 3 });
  });

  it('reads index and attribute access after a placeholder name, as Python does', () => {
    const parsed = parseFormatTemplate("a = {items[0]}\nb = {cfg[key]!r:>3}\nc = {n.real}\nd = {x[0]: 1}");
    expect(parsed.problems).toEqual([]);
    expect(parsed.segments.filter((s) => s.kind === 'field')).toEqual([
      expect.objectContaining({ name: 'items', accessors: [{ kind: 'index', key: 0 }] }),
      expect.objectContaining({ name: 'cfg', accessors: [{ kind: 'index', key: 'key' }], conversion: 'r', spec: '>3' }),
      expect.objectContaining({ name: 'n', accessors: [{ kind: 'attribute', name: 'real' }] }),
      expect.objectContaining({ name: 'x', accessors: [{ kind: 'index', key: 0 }], spec: ' 1' }),
    ]);
    expect(parseFormatTemplate("{'a'[0]}").problems[0]).toMatchObject({ kind: 'literal-brace' });
    expect(returnTemplateProblem('{output[0]}')).toMatch(/not supported/);
  });
});

describe('Python quote contexts', () => {
  it('knows bare code, comments and every kind of string literal', () => {
    expect(contextsOf(`x = @  # @\ns = '@' + "@" + '''@''' + """@"""\nr = r'@' + Rb"@" + f'@' + rf"""@"""`)).toEqual([
      'code', 'comment', "'", '"', "'''", '"""', "r'", 'Rb"', "f'", 'rf"""',
    ]);
  });

  it('sees through escaped quotes, f-string expressions and strings that end before the field', () => {
    expect(contextsOf(`'it\\'s @' "@" ''@`)).toEqual(["'", '"', 'code']);
    expect(contextsOf(`f"{{ x }} {len(@)} {'@'} {y:>@}"`)).toEqual(['code', "'", 'f"']);
    expect(contextsOf("print('a') # '@'\n@")).toEqual(['comment', 'code']);
  });
});

describe('Python literals', () => {
  it('turns JSON values into Python source', () => {
    expect(pythonLiteral(3)).toBe('3');
    expect(pythonLiteral(-0.5)).toBe('-0.5');
    expect(pythonLiteral(true)).toBe('True');
    expect(pythonLiteral(null)).toBe('None');
    expect(pythonLiteral("it's\n")).toBe("'it\\'s\\n'");
    expect(pythonLiteral({ a: [1, false, 'x'] })).toBe("{'a': [1, False, 'x']}");
  });

  it('writes strings for f-string expressions without backslashes or the enclosing quotes', () => {
    expect(quoteWithout(['"'])('plain')).toBe("'plain'");
    expect(quoteWithout(['"'])('a\\b')).toBe(`bytes.fromhex('615c62').decode()`);
    expect(quoteWithout(['"', "'"])('hi')).toBe('str().join(map(chr,(104,105,)))');
  });
});

describe('rendering execution.py', () => {
  const schema = { type: 'object', properties: { t: { type: 'string' }, n: { type: 'number', default: 2 }, o: { type: 'string' } }, required: ['t'] };
  const render = (template: string, args: Record<string, unknown>) => renderExecution(compileExecution(template, schema, 'execution.py'), args, schema);

  it('escapes per context, fills defaults and empties, and splices raw strings that cannot hold the value', () => {
    expect(render("a = '{t}'\nb = {n}\nc = '{o}'\nd = {o}", { t: "x'y" })).toEqual({ ok: true, code: "a = 'x\\'y'\nb = 2\nc = ''\nd = None" });
    expect(render("r = r'{t}'", { t: 'C:\\dir' })).toEqual({ ok: true, code: "r = r'' 'C:\\\\dir' r''" });
    expect(render("r = r'{t}'", { t: 'plain' })).toEqual({ ok: true, code: "r = r'plain'" });
    expect(render("v = '\\{t}'", { t: "'" })).toEqual({ ok: true, code: "v = '\\\n\\''" });
    expect(render("v = {n:.2f}", { t: 'x', n: 3.14159 })).toEqual({ ok: true, code: 'v = 3.14' });
  });

  it('applies format specs and !r as str.format does, but never lets a string out of its quotes', () => {
    expect(render("s = '{t:>6}|{n:+07.2f}'", { t: "a'b", n: 3.14159 })).toEqual({ ok: true, code: "s = '   a\\'b|+003.14'" });
    expect(render('s = "{t!r}"', { t: "it's" })).toEqual({ ok: true, code: `s = "\\"it's\\""` });
    // Python would paste the padded text as code; here the value stays a quoted literal.
    expect(render('s = {t:>6}', { t: '1; import os' })).toEqual({ ok: true, code: "s = '1; import os'" });
  });

  it("answers a missing required argument or an unknown placeholder with seed 004's error", () => {
    expect(render("a = '{t}'", {})).toEqual({ ok: false, error: '缺少必填参数: t\nMissing required parameter: t' });
    expect(render("a = '{zzz}'", { t: 'x' })).toMatchObject({ ok: false, error: expect.stringContaining('缺少必填参数: zzz') });
    const compiled = compileExecution("a = {zzz}", schema, 'execution.py');
    expect(compiled.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'template-unknown-placeholder', line: 1, column: 5 })]);
  });
});

describe('return.json templates', () => {
  it('accepts only the four fields and formats them', () => {
    expect(returnTemplateProblem('[{tool_id}] rc={return_code}: {output} {stderr} {{x}}')).toBeNull();
    expect(returnTemplateProblem('结果={result}')).toContain('{result}');
    expect(returnTemplateProblem('oops {')).toContain('never closed');
    expect(formatReturnTemplate('[{tool_id}] {output} {{ok}}', { output: 'o', stderr: '', return_code: '0', tool_id: 't' })).toBe('[t] o {ok}');
  });

  it('formats specs and conversions like Python, and gives up where Python would raise', () => {
    const values = { output: "it's\n", stderr: '', return_code: 0, tool_id: 'calc' };
    expect(formatReturnTemplate('rc={return_code:>3} out={output!r} id={tool_id:^8}|', values)).toBe(`rc=  0 out="it's\\n" id=  calc  |`);
    expect(formatReturnTemplate('{output:d}', values)).toBeUndefined();
  });

  it("implements Python's format-spec mini-language for strings and numbers", () => {
    const cases: [unknown, string, string | undefined][] = [
      ['ab', '*^7', '**ab***'], ['abcdef', '.3', 'abc'], [1234567.891, ',.2f', '1,234,567.89'], [-42, '+06d', '-00042'],
      [255, '#x', '0xff'], [0.25, '.1%', '25.0%'], [12345.678, 'e', '1.234568e+04'], [-3.5, '=+8.2f', '-   3.50'], [2.5, '10', '       2.5'],
      [2.5, 'd', undefined], ['x', '=5', undefined], [true, '>5', undefined],
    ];
    for (const [value, spec, expected] of cases) expect(formatWithSpec(value, spec), `${JSON.stringify(value)}:${spec}`).toBe(expected);
  });
});
