// A parent for the warm Python die-with-the-app test: runs one warm module call in FOLDER (argv),
// prints the zygote's pid and the call's result, then waits to be killed.
import { helperDirs, helperScript } from '../../electron/runtime/sources/process/helper-scripts.ts';
import { createWarmPythonRunner } from '../../electron/runtime/runner/warm-python/warm-python-runner.ts';
import { WarmPythonPool } from '../../electron/runtime/runner/warm-python/warm-python-pool.ts';

const [python, folder] = [process.argv[2]!, process.argv[3]!];
const file = `${folder}/m.py`;
const pool = new WarmPythonPool();
const runner = createWarmPythonRunner({ pool, zygoteScript: helperScript.pythonZygote() });
const result = await runner({
  command: python,
  args: [helperScript.pythonRunner(), file, 'f', 'M'],
  cwd: folder,
  stdin: '{}',
  timeoutMs: 10_000,
  resultChannel: true,
  sandbox: { mode: 'auto', toolDir: folder, network: true, readOnlyPaths: helperDirs() },
  python: { kind: 'module', file, function: 'f', marker: 'M' },
});
const zygotes = await pool.zygotes();
process.stdout.write(`${JSON.stringify({ zygote: zygotes[0]?.hostPid, channel: result.channel })}\n`);
setInterval(() => {}, 1000);
