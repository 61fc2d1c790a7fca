// Load time of 300 module tools (TS factories importing typebox): in the app process as before
// the tool host (issue 10 §1) against the sandboxed tool host, cold (nothing transpiled yet) and
// warm (the transpile cache filled: every start after the first). Each figure is the median of
// fresh processes, so no figure profits from JIT warmed by another.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './report.ts';

const MODULES = 300;
const RUNS = 5;
const WORKER = fileURLToPath(new URL('./module-load-worker.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

function generate(root: string): void {
  mkdirSync(root);
  for (let i = 0; i < MODULES; i++) {
    writeFileSync(
      join(root, `mod_${i}.ts`),
      `import { Type } from "@sinclair/typebox";\nexport default () => ({ name: "mod_${i}", description: "module ${i}", parameters: Type.Object({ n: Type.Number() }), async execute(_id: string, p: { n: number }) { return { content: [{ type: "text", text: String(p.n * ${i}) }] }; } });\n`,
    );
  }
}

/** [first load, reload, reload, sandbox probe] in ms, from a fresh process. */
function measure(mode: 'in' | 'host', root: string, home: string): number[] {
  return JSON.parse(execFileSync(TSX, [WORKER, mode, root, home], { encoding: 'utf8', timeout: 300_000 })) as number[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'td-bench-modules-'));
  const root = join(work, 'modules');
  generate(root);
  const figures: Record<string, { cold: number[]; warm: number[]; reload: number[] }> = { in: { cold: [], warm: [], reload: [] }, host: { cold: [], warm: [], reload: [] } };
  const probes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ['in', 'host'] as const) {
      const home = join(work, `${mode}-${i}`);
      mkdirSync(home);
      const cold = measure(mode, root, home);
      const warm = measure(mode, root, home);
      figures[mode]!.cold.push(cold[0]!);
      figures[mode]!.warm.push(warm[0]!);
      figures[mode]!.reload.push(median(warm.slice(1, 3)));
      probes.push(cold[3]!, warm[3]!);
    }
  }
  const line = (kind: 'cold' | 'warm' | 'reload', what: string) => {
    const before = median(figures.in![kind]);
    const after = median(figures.host![kind]);
    report(before, 'ms', `${MODULES} module tools, ${what}: in the app process (before the tool host)`);
    report(after, 'ms', `${MODULES} module tools, ${what}: in the sandboxed tool host${kind === 'reload' ? '' : ' (its start included)'}`);
    console.log(`${`${(after / before).toFixed(2)}×`.padStart(16)}  ${MODULES} module tools, ${what}: tool host / in-process (must stay ≤ 1.50×)`);
  };
  line('cold', 'cold start, nothing transpiled yet');
  line('warm', 'app start, transpile cache warm');
  line('reload', 'reload in a running app (host already up)');
  report(median(probes), 'ms', 'sandbox probe (bwrap trial run), once per app start in both designs, not in the figures above');
  rmSync(work, { recursive: true, force: true });
}
