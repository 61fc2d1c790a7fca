import { describe, expect, it } from 'vitest';
import { ToolSearchIndex, tokenize } from '../../../electron/runtime/tools/find-tools-ranking.ts';
import type { ToolDefinition } from '../../../shared/tools.ts';

const def = (name: string, description: string, params: Record<string, string> = {}): ToolDefinition => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: { type: 'object', properties: Object.fromEntries(Object.entries(params).map(([k, d]) => [k, { type: 'string', description: d }])) },
  },
});

const tools = [
  def('read_csv', 'Read a CSV file and return its rows as JSON', { path: 'File to read' }),
  def('write_file', 'Write text to a file', { path: 'Where', content: 'What to write' }),
  def('http_get', 'Fetch a URL over HTTP and return the body', { url: 'The address' }),
  def('convertUnits', 'Convert between units of length, mass and temperature', { value: '', from_unit: '', to_unit: '' }),
  def('weather_now', 'Current weather for a city', { city: 'City name' }),
  def('table_stats', 'Statistics of the numbers in a CSV table', { table: 'The table' }),
];

describe('tokenize', () => {
  it('splits snake, camel, kebab and dotted names, lower-cases, and stems plurals and -ing/-ed', () => {
    expect(tokenize('convertUnits')).toEqual(['convert', 'unit']);
    expect(tokenize('read_csv-files.v2')).toEqual(['read', 'csv', 'file', 'v2']);
    expect(tokenize('HTTPServer parsing')).toEqual(['http', 'server', 'pars']);
    expect(tokenize('')).toEqual([]);
  });
});

describe('ToolSearchIndex (FindTools ranking)', () => {
  const index = new ToolSearchIndex(tools);

  it('ranks a tool whose name has the words above one that only mentions them', () => {
    const hits = index.search('csv');
    expect(hits.map((h) => h.definition.function.name)).toEqual(['read_csv', 'table_stats']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('matches description and parameter names, plural or not', () => {
    expect(index.search('convert temperatures')[0]!.definition.function.name).toBe('convertUnits');
    expect(index.search('fetch a web page by url')[0]!.definition.function.name).toBe('http_get');
    expect(index.search('city')[0]!.definition.function.name).toBe('weather_now');
  });

  it('an exact tool name wins whatever the other words say', () => {
    expect(index.search('write_file')[0]!.definition.function.name).toBe('write_file');
  });

  it('no match, empty or punctuation-only queries give nothing; the limit holds', () => {
    expect(index.search('kubernetes')).toEqual([]);
    expect(index.search('   ')).toEqual([]);
    expect(index.search('?!')).toEqual([]);
    expect(index.search('a file', 1)).toHaveLength(1);
    expect(index.search('file', 0)).toEqual([]);
  });

  it('rare words weigh more than common ones (idf)', () => {
    // "file" is in three tools, "write" in one: the query's best hit is the one with the rare word.
    expect(index.search('file write')[0]!.definition.function.name).toBe('write_file');
  });

  it('copes with hostile definitions: no description, no parameters, odd schemas', () => {
    const odd: ToolDefinition[] = [
      { type: 'function', function: { name: 'bare', parameters: {} } },
      { type: 'function', function: { name: 'weird', description: 'x', parameters: { properties: { constructor: null, __proto__: 1 } as never } } },
    ];
    const small = new ToolSearchIndex(odd);
    expect(small.search('bare')[0]!.definition.function.name).toBe('bare');
    expect(small.search('constructor')[0]!.definition.function.name).toBe('weird');
  });
});
