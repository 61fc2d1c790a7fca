// Tools for schedule tests that show where, and how often, they ran.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `script_count {file?}`: appends a line to `file` (default `count.txt`, relative: in the folder it
 * runs in) and says how many lines it now holds and where it ran: `count N in CWD`.
 */
export function addCountingTool(home: string): void {
  const dir = join(home, 'tools', 'count');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'tool.json'),
    JSON.stringify({ name: 'count', description: 'Counts its runs in a file.', parameters: { type: 'object', properties: { file: { type: 'string', description: 'The file (relative: where it runs)' } } } }),
  );
  writeFileSync(
    join(dir, 'script.js'),
    `const fs = require('node:fs');
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const file = JSON.parse(input || '{}').file || 'count.txt';
  fs.appendFileSync(file, 'ran\\n');
  const n = fs.readFileSync(file, 'utf8').split('\\n').filter(Boolean).length;
  process.stdout.write('count ' + n + ' in ' + process.cwd());
});`,
  );
}
