import { describe, expect, it } from 'vitest';
import { mapCallResult } from '../../../../../electron/runtime/sources/mcp/mapping/map-result.ts';

describe('MCP tool results', () => {
  it('text as text, binary summarised and kept, links shown', () => {
    const png = Buffer.alloc(3000).toString('base64');
    const r = mapCallResult({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: png },
        { type: 'audio', mimeType: 'audio/wav', data: Buffer.alloc(3000, 1).toString('base64') },
        { type: 'resource_link', uri: 'file:///tmp/a.txt', name: 'a.txt' },
        { type: 'resource', resource: { uri: 'mem://x', mimeType: 'text/plain', text: 'inner' } },
      ],
    });
    expect(r.status).toBe('SUCCESS');
    expect(r.formattedText).toBe('hello\n[image image/png, 3 KB]\n[audio audio/wav, 3 KB]\n[link: a.txt <file:///tmp/a.txt>]\n[resource mem://x text/plain, 5 characters]\ninner');
    expect(r.images).toEqual([{ mimeType: 'image/png', data: png }]);
    // The bytes are kept once, beside the data, not in it.
    expect(JSON.stringify(r.data)).not.toContain(png);
    expect(JSON.stringify(r.data)).toContain('3 KB of image data');
  });

  it('images beside structuredContent are kept too; an error keeps none', () => {
    const r = mapCallResult({ content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0K' }], structuredContent: { a: 1 } });
    expect(r.images).toEqual([{ mimeType: 'image/png', data: 'iVBORw0K' }]);
    expect(mapCallResult({ content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0K' }], isError: true }).images).toBeUndefined();
  });

  it('structuredContent is the JSON of the result', () => {
    const r = mapCallResult({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(r.data).toEqual({ a: 1 });
    expect(JSON.parse(r.formattedText!)).toEqual({ a: 1 });
  });

  it('isError is an ERROR with the server text', () => {
    expect(mapCallResult({ content: [{ type: 'text', text: 'no such repo' }], isError: true })).toEqual({ status: 'ERROR', error: 'no such repo' });
    expect(mapCallResult({ isError: true }).error).toMatch(/without a message/);
  });

  it('survives junk content from a server', () => {
    expect(mapCallResult({ content: [null, 5, { type: 'weird' }] as unknown[] }).formattedText).toBe('[weird content]');
    expect(mapCallResult({ content: 'not a list' }).formattedText).toBe('');
  });
});

describe('MCP results with structuredContent keep the server text (#36 item 14)', () => {
  const summary = ['Budget: $100 000', ...Array.from({ length: 14 }, (_, i) => `Category ${i + 1}: ${i * 3} %`)].join('\n');
  const structured = { categories: Array.from({ length: 200 }, (_, i) => ({ id: `c${i}`, name: `Category ${i}`, history: [1, 2, 3, 4, 5] })) };

  it('a summary written for people is what the model reads; the JSON stays the data', () => {
    const r = mapCallResult({ content: [{ type: 'text', text: summary }], structuredContent: structured });
    expect(r.formattedText).toBe(summary);
    expect(r.data).toEqual(structured);
    expect(JSON.parse(r.structuredText!)).toEqual(structured);
  });

  it('a wrapper around the text itself adds no second copy', () => {
    const r = mapCallResult({ content: [{ type: 'text', text: 'line 1\nline 2' }], structuredContent: { content: 'line 1\nline 2' } });
    expect(r.formattedText).toBe('line 1\nline 2');
    expect(r.data).toEqual({ content: 'line 1\nline 2' });
    expect(r.structuredText).toBeUndefined();
  });

  it('no text at all: the JSON is the text', () => {
    const r = mapCallResult({ content: [], structuredContent: { a: 1 } });
    expect(JSON.parse(r.formattedText!)).toEqual({ a: 1 });
    expect(r.structuredText).toBeUndefined();
  });
});
