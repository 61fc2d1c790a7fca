// A real SourceContext for tool-source tests: the real runner, a tmp TOOLDESK_HOME, sandbox off
// unless a test asks for it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRunner } from '../../electron/runtime/runner/create-runner.ts';
import { ModuleHostPool } from '../../electron/runtime/sources/module/host-pool.ts';
import type { SourceContext } from '../../electron/runtime/sources/types.ts';
import type { ToolContext } from '../../electron/runtime/tools/types.ts';
import type { ToolUpdate } from '../../shared/tools.ts';

/**
 * The module tool hosts of every test context of this test file (one worker): a reload with a
 * fresh context reuses its host, as in the runtime. A file that starts hosts shuts them down.
 */
export const testModuleHosts = new ModuleHostPool();

export function makeTmpHome(): string {
  return mkdtempSync(join(tmpdir(), 'td-'));
}

export function testSourceContext(overrides: Partial<SourceContext> = {}): SourceContext {
  const home = overrides.home ?? makeTmpHome();
  return {
    home,
    cacheDir: join(home, 'cache'),
    runner: createRunner(),
    pythonPath: null,
    workingDir: home,
    env: {},
    toolTimeoutMs: 30_000,
    outputCapBytes: 1024 * 1024,
    sandboxMode: 'off',
    moduleHosts: testModuleHosts,
    ...overrides,
  };
}

export function testToolContext(overrides: Partial<ToolContext> = {}): ToolContext & { updates: ToolUpdate[] } {
  const updates: ToolUpdate[] = [];
  return {
    callId: 'call_1',
    sessionId: 'session_1',
    signal: new AbortController().signal,
    onUpdate: (u) => updates.push(u),
    updates,
    ...overrides,
  };
}
