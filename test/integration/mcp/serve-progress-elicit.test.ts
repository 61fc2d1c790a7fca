// Issue #36 item 16: over `mcp serve`, the progress numbers of a call started again at 1 after an
// elicitation round trip (each request round numbered its own notifications), so a host saw its
// call's progress go backwards. The numbers belong to the call now: a proxied MCP server that
// reports progress, asks the user, and reports more gives the host 1, 2, 3, 4.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectStdio, serveHome, textOf, type ServeHome } from '../../support/mcp-serve-harness.ts';
import { fixture } from '../../support/mcp-servers.ts';

let serve: ServeHome | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  serve?.cleanup();
});

describe('mcp serve: progress across an elicitation', () => {
  it('keeps rising after the question the tool asked was answered', async () => {
    serve = serveHome([]);
    const painter = { command: process.execPath, args: [fixture('progress-ask-server.mjs')], sandbox: 'off' };
    writeFileSync(join(serve.home, 'settings.json'), JSON.stringify({ mcpServers: { painter }, groupDefaults: { painter: true }, permissionOverrides: { painter__step: { executionPolicy: 'auto' } } }));
    const questions: string[] = [];
    ({ client } = await connectStdio(serve, {
      elicit: (message) => {
        questions.push(message);
        return { action: 'accept', content: { colour: 'teal' } };
      },
    }));
    const seen: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool({ name: 'painter__step', arguments: {} }, { onprogress: (p) => seen.push({ progress: p.progress, ...(p.message ? { message: p.message } : {}) }) });
    expect(textOf(result)).toBe('painted teal');
    expect(questions).toEqual(['Which colour?']);
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(seen.map((p) => p.message)).toEqual([expect.stringContaining('reading'), expect.stringContaining('thinking'), expect.stringContaining('painting'), expect.stringContaining('drying')]);
  }, 60_000);
});
