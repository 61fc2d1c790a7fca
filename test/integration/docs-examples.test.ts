// Issue #37: every shell example of the README and docs/ that runs `tooldesk` is run, against a
// fresh home per page and the fake model (test/support/fake-openai-server.ts) standing in for the
// `127.0.0.1:8787` the pages name. A block that cannot run here says why just above it
// (`<!-- not run: reason -->`) and is counted; at least 90 % of the examples must run. A renamed
// flag or a stale example fails here. Each block runs as one bash script with `set -e`, `tooldesk`
// and `npm run [-s] tooldesk --` being the checkout's CLI.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoScript, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { docPages, fences, type Fence } from '../support/docs/markdown-pages.ts';
import { repoRoot } from '../support/run-cli.ts';

const BIN = join(repoRoot, 'electron/cli/bin.mjs');
const isShellExample = (fence: Fence) =>
  ['sh', 'bash', 'shell'].includes(fence.lang) && fence.body.split('\n').some((l) => /^\s*(tooldesk|npm run (-s )?tooldesk)\b/.test(l));
const examples = docPages().flatMap(fences).filter(isShellExample);
const notRun = examples.filter((f) => /^not run: /.test(f.note ?? ''));
const toRun = examples.filter((f) => !notRun.includes(f));

let model: FakeOpenAIServer;
const scratch = mkdtempSync('/var/tmp/td-docs-');
beforeAll(async () => {
  model = await startFakeOpenAI({ script: demoScript });
});
afterAll(async () => {
  await model?.close();
  rmSync(scratch, { recursive: true, force: true });
  const reasons = notRun.map((f) => `  ${f.page}:${f.line}: ${f.note!.slice('not run: '.length)}`);
  process.stdout.write(`docs examples: ${toRun.length} ran, ${notRun.length} marked not run${reasons.length ? `:\n${reasons.join('\n')}` : ''}\n`);
});

/** A home per page: examples of one page build on each other, as a reader's would. */
const homes = new Map<string, { home: string; cwd: string }>();
function homeOf(page: string): { home: string; cwd: string } {
  let made = homes.get(page);
  if (!made) {
    const base = join(scratch, page.replace(/[^A-Za-z0-9]+/g, '_'));
    const home = join(base, 'home');
    const cwd = join(base, 'checkout');
    mkdirSync(home, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    // What examples name from the checkout: its resources, examples and packages (npx finds local bins).
    for (const entry of ['resources', 'docs', 'node_modules', 'package.json']) symlinkSync(join(repoRoot, entry), join(cwd, entry));
    made = { home, cwd };
    homes.set(page, made);
  }
  return made;
}

const PRELUDE = [
  'set -euo pipefail',
  `tooldesk() { node ${JSON.stringify(BIN)} "$@"; }`,
  // `npm run tooldesk -- …` and `npm run -s tooldesk -- …` are the same CLI.
  'npm() { if [ "$1" = run ] && { [ "$2" = tooldesk ] || { [ "$2" = -s ] && [ "$3" = tooldesk ]; }; }; then shift 2; [ "$1" = tooldesk ] && shift; [ "${1:-}" = -- ] && shift; tooldesk "$@"; else command npm "$@"; fi; }',
].join('\n');

describe('the shell examples of the docs', () => {
  it('at least 90 % of them run', () => {
    expect(examples.length).toBeGreaterThan(0);
    expect(toRun.length / examples.length).toBeGreaterThanOrEqual(0.9);
  });

  for (const fence of toRun) {
    it(`${fence.page}:${fence.line}`, async () => {
      const { home, cwd } = homeOf(fence.page);
      const script = `${PRELUDE}\n${expectRefusals(fence.body.replaceAll('127.0.0.1:8787', `127.0.0.1:${model.port}`))}\n`;
      const file = join(cwd, `example-${fence.line}.sh`);
      writeFileSync(file, script);
      const env = {
        // The fake model answers from this process: the example runs beside it, never blocking it.
        ...process.env,
        HOME: home,
        TOOLDESK_HOME: join(home, '.tooldesk'),
        TOOLDESK_SECRET_SERVICE: `Tooldesk-docs-${process.pid}`,
        OPENAI_API_KEY: 'sk-docs-example',
      };
      const run = await runScript(file, cwd, env);
      expect(run.status, `${fence.page}:${fence.line} failed:\n${run.output}`).toBe(0);
    }, 150_000);
  }
});

/**
 * A command the page shows being refused ends with a `# refused` comment: it must fail (and the
 * block goes on), so an example of an error stays an example of that error.
 */
function expectRefusals(body: string): string {
  return body
    .split('\n')
    .map((line) => {
      const at = line.search(/\s#\s*refused\b/);
      if (at === -1) return line;
      return `if ( ${line.slice(0, at)} ); then echo "expected a refusal: ${line.slice(0, at).replaceAll('"', '\\"').replaceAll('$', '\\$').replaceAll('`', '\\`')}" >&2; exit 1; fi`;
    })
    .join('\n');
}

function runScript(file: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}
