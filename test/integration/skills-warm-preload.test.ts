// Issue 34/38: skill scripts run through the warm fork-server with their dependencies preloaded.
// A real skill whose script imports numpy, through the real runtime's ToolSession (approval,
// sandbox, audit) and its warm-Python pool: the script's own first line reports whether numpy was
// in sys.modules before it imported it — true only when a fork-server that preloaded it served the
// call (a cold run starts without it). Arguments reach sys.argv as a cold run gives them; the
// sandbox stays the skill's (network off unless granted).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ToolExecuteResult } from '../../shared/tools.ts';
import { createRuntime, type Runtime } from '../../electron/runtime/create-runtime.ts';
import { realPython } from '../support/real-python.ts';
import { writeSkill } from '../support/skill-fixtures.ts';
import { tempHomes } from '../support/temp-homes.ts';

vi.setConfig({ testTimeout: 60_000 });

const python = realPython();
const hasNumpy = (() => {
  try {
    if (!python) return false;
    execFileSync(python, ['-c', 'import numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const homes = tempHomes();
const savedHome = process.env.HOME;
let runtime: Runtime;

const STATS =
  'import sys\n' +
  'print("numpy-before-import:", "numpy" in sys.modules)\n' +
  'import numpy\n' +
  'print("mean:", numpy.mean([float(a) for a in sys.argv[1:]]), "argv:", sys.argv[1:])\n' +
  'import socket\n' +
  'try:\n' +
  '    socket.create_connection(("1.1.1.1", 53), timeout=2)\n' +
  '    print("network: on")\n' +
  'except OSError:\n' +
  '    print("network: off")\n';

beforeAll(async () => {
  const base = homes.make();
  const userHome = join(base, 'user');
  const home = join(base, 'tooldesk');
  const work = join(base, 'work');
  const skills = join(userHome, '.agents/skills');
  for (const d of [home, work, skills]) mkdirSync(d, { recursive: true });
  process.env.HOME = userHome;
  writeSkill(skills, 'stats', { name: 'stats', description: 'Averages numbers.' }, 'Run scripts/stats.py.\n', { 'scripts/stats.py': STATS });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: python, workingDir: work, runner: { warmPython: true } }));
  runtime = await createRuntime({ home, tools: { mcp: false, cwd: work } });
});

afterAll(async () => {
  await runtime?.close();
  process.env.HOME = savedHome;
  homes.removeAll();
});

async function call(name: string, args: Record<string, unknown>): Promise<ToolExecuteResult> {
  const session = await runtime.toolSession({ sessionId: 'warm-skill', approve: async () => ({ decision: 'once' }) });
  try {
    // run_skill_python runs only for a skill active in the conversation.
    if (name === 'run_skill_python') await session.execute('activate_skill', { name: args.skill });
    return await session.execute(name, args);
  } finally {
    session.close();
  }
}

const text = (r: ToolExecuteResult) => JSON.stringify(r);

describe.skipIf(!python || !hasNumpy || process.platform !== 'linux')('skill scripts through the warm preload', () => {
  it("a script's calls are served by the skill's fork-server with numpy already imported", async () => {
    const first = await call('run_skill_script', { skill: 'stats', script: 'scripts/stats.py', args: ['2', '4'] });
    expect(first.status, text(first)).toBe('SUCCESS');
    const second = await call('run_skill_script', { skill: 'stats', script: 'scripts/stats.py', args: ['1', '2', '6'] });
    expect(second.status, text(second)).toBe('SUCCESS');
    for (const [result, argv] of [
      [first, "['2', '4']"],
      [second, "['1', '2', '6']"],
    ] as const) {
      const out = String(result.status === 'SUCCESS' ? result.finalText : '');
      // The preload was in the process before the script's own import ran.
      expect(out).toContain('numpy-before-import: True');
      expect(out).toContain(`mean: 3.0 argv: ${argv}`);
      // The skill's sandbox: no network without the user's grant.
      expect(out).toContain('network: off');
    }
    const zygotes = await runtime.helpers()!.warmPython.zygotes();
    expect(zygotes.map((z) => z.preload.preloaded)).toContainEqual(['numpy']);
    expect(runtime.helpers()!.warmPython.counts().warm).toBeGreaterThanOrEqual(2);
  });

  it('run_skill_python shares the skill\'s fork-server and its preloads', async () => {
    const result = await call('run_skill_python', { skill: 'stats', code: 'import sys\nprint("numpy-before-import:", "numpy" in sys.modules)\n' });
    expect(result.status, text(result)).toBe('SUCCESS');
    expect(text(result)).toContain('numpy-before-import: True');
  });
});
