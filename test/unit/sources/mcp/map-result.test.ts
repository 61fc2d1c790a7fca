import { describe, expect, it } from 'vitest';
import { mapCallResult } from '../../../../electron/runtime/sources/mcp/map-result.ts';

describe('MCP tool results', () => {
  it('text as text, binary summarised and kept, links shown', () => {
    const png = Buffer.alloc(3000).toString('base64');
    const r = mapCallResult({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: png },
        { type: 'audio', mimeType: 'audio/wav', data: png },
        { type: 'resource_link', uri: 'file:///tmp/a.txt', name: 'a.txt' },
        { type: 'resource', resource: { uri: 'mem://x', mimeType: 'text/plain', text: 'inner' } },
      ],
    });
    expect(r.status).toBe('SUCCESS');
    expect(r.formattedText).toBe('hello\n[image image/png, 3 KB]\n[audio audio/wav, 3 KB]\n[link: a.txt <file:///tmp/a.txt>]\n[resource mem://x text/plain, 5 characters]\ninner');
    expect((r.data as { images: unknown[] }).images).toEqual([{ mimeType: 'image/png', data: png }]);
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
