import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cappedFetch } from '../../../../../electron/runtime/sources/mcp/connection/capped-fetch.ts';

let base = '';
const server = createServer((req, res) => {
  const size = Number(new URL(req.url!, 'http://x').searchParams.get('size'));
  const chunked = req.url!.includes('chunked');
  res.writeHead(200, { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(size) }) });
  const piece = Buffer.alloc(64 * 1024, 'a');
  let left = size;
  while (left > 0) {
    res.write(left >= piece.length ? piece : piece.subarray(0, left));
    left -= piece.length;
  }
  res.end();
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the bound on HTTP answers', () => {
  const capped = cappedFetch(fetch, 1024 * 1024);
  it('passes answers under the bound', async () => {
    expect((await (await capped(`${base}/?size=1000`)).text()).length).toBe(1000);
  });
  it('refuses a declared size over it, and cuts an undeclared one while it streams', async () => {
    await expect(capped(`${base}/?size=${3 * 1024 * 1024}`)).rejects.toThrow(/answer was 3 MB, over the 1 MB bound/);
    const response = await capped(`${base}/chunked?size=${3 * 1024 * 1024}`);
    await expect(response.text()).rejects.toThrow(/more than 1 MB, over the 1 MB bound/);
  });
});
