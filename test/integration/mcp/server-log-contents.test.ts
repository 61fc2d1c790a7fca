// What a stdio server's log holds and what a failure shows of it (issue 25). The sandbox's "only
// part of FOLDER was searched for secret files" is about the sandbox, not the server: it is part of
// the server's sandbox note, and `mcp logs` does not open with it. A server that dies shows the
// head and the tail of what it printed, so the line saying what failed is not cut off.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../electron/runtime/runner/sandbox-detect.ts';
import { clearSecretFileCache } from '../../../electron/runtime/runner/sensitive-paths.ts';
import { fixture, testManager } from '../../support/mcp-servers.ts';

const base = mkdtempSync('/var/tmp/td-mcp-scan-note-');
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe.runIf(detectSandbox().available)('a sandboxed server whose working folder is deeper than the secret-file search', () => {
  it('has the cut-short search in its sandbox note, not in its log', async () => {
    // Seven levels of folders: the search stops at six, so it is incomplete.
    const workingDir = join(base, 'work');
    mkdirSync(join(workingDir, 'a', 'b', 'c', 'd', 'e', 'f', 'g'), { recursive: true });
    clearSecretFileCache();
    const manager = testManager({ workingDir, sandboxBase: { homeDir: join(base, 'home') } });
    try {
      await manager.configure({ logs: { command: process.execPath, args: [fixture('log-server.mjs')] } }, { logs: true });
      await manager.startAll(['logs']);
      const connection = manager.connection('logs')!;
      const state = connection.state();
      expect(state.status).toBe('ready');
      expect(state.detail).toMatch(/^sandboxed: network allowed, home read-only; Only part of \S+work was searched for secret files/);
      expect(connection.log.lines().join('\n')).not.toContain('secret files');
    } finally {
      await manager.close();
    }
  }, 30_000);
});

describe('a server that fails while starting', () => {
  it('shows the head and the tail of what it printed, the middle elided', async () => {
    // Node prints where it threw, then "Error: …", then one line per frame: the tail alone is frames.
    const script = join(base, 'dies.mjs');
    const frames = Array.from({ length: 14 }, (_, i) => `function f${i}() { ${i === 13 ? "throw new Error('the database file is locked')" : `f${i + 1}()`}; }`);
    writeFileSync(script, `console.error('starting the example server');\n${frames.join('\n')}\nf0();\n`);
    const manager = testManager({ workingDir: base });
    try {
      await manager.configure({ dies: { command: process.execPath, args: [script], sandbox: 'off' } }, { dies: true });
      await manager.startAll(['dies']);
      const detail = manager.connection('dies')!.state().detail!;
      const lines = detail.split('\n');
      expect(lines).toContain('starting the example server');
      expect(lines).toContain('Error: the database file is locked');
      expect(detail).toMatch(/\n… \d+ more lines in the server's log\n/);
      expect(lines.at(-1)).toMatch(/^Node\.js v\d+/);
      expect(lines.length).toBeLessThan(20);
    } finally {
      await manager.close();
    }
  }, 30_000);
});
