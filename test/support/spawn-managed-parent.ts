// A parent for the die-with-parent test: starts a managed child (from argv's JSON spec), prints
// the child's pid, then waits to be killed.
import { spawnManaged } from '../../electron/runtime/runner/spawn-managed.ts';

const spec = JSON.parse(process.argv[2] ?? '{}');
const child = await spawnManaged(spec);
if ('error' in child) {
  process.stdout.write(JSON.stringify({ error: child.error }) + '\n');
  process.exit(1);
}
child.stdout.on('data', (chunk: Buffer) => process.stdout.write(chunk));
process.stdout.write(JSON.stringify({ pid: child.pid }) + '\n');
setInterval(() => {}, 1000);
