// Where an MCP server resolves a relative path (issue #32 item 6), which the rules resolve it
// against: its cwd as the next start resolves it, then the folders given to it; a remote server's
// folders are unknown (no folder: the rules cannot resolve a relative path for it).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServers } from '../../../../electron/runtime/sources/mcp/config/server-config.ts';
import { serverRelativeTo } from '../../../../electron/runtime/sources/mcp/connection/server-roots.ts';

const made: string[] = [];
afterEach(() => made.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const server = (entry: Record<string, unknown>) => parseMcpServers({ s: entry }).servers[0]!;

describe('serverRelativeTo', () => {
  it('is the cwd (its ${env:} resolved), else the working folder, then the folders in its arguments', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rel-'));
    made.push(dir);
    mkdirSync(join(dir, 'docs'));
    expect(serverRelativeTo(server({ command: 'node', args: ['x.js', join(dir, 'docs')] }), dir, {})).toEqual([dir, join(dir, 'docs')]);
    expect(serverRelativeTo(server({ command: 'node', args: [], cwd: '${env:PROJ}/sub' }), '/w', { PROJ: dir })).toEqual([join(dir, 'sub')]);
  });

  it('is nothing for a remote server', () => {
    expect(serverRelativeTo(server({ url: 'https://example.com/mcp' }), '/w', {})).toEqual([]);
  });
});
