// What a stdio server's log holds (issue 25): the server's own output and our notes about it. The
// sandbox's "only part of FOLDER was searched for secret files" is about the sandbox, not the
// server: it is part of the server's sandbox note, and `mcp logs` does not open with it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
