// `npm run bench [-- NAME…] [-- --write-docs]`: runs every test/bench/*.bench.ts (or those whose
// name holds a NAME) in name order. Each prints lines of "<figure> <unit>  <what it measures>";
// ratios are printed as "x.xx×". With --write-docs the printed figures also become
// docs/performance.md (the only way that page is written: never by hand).
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const writeDocs = args.includes('--write-docs');
const only = args.filter((a) => a !== '--write-docs');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const sections: Array<{ name: string; lines: string[] }> = [];
const print = console.log.bind(console);
if (writeDocs) {
  console.log = (...parts: unknown[]) => {
    print(...parts);
    sections.at(-1)?.lines.push(parts.map(String).join(' '));
  };
}
const loadBefore = loadavg()[0]!;
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  print(`\n## ${name}`);
  sections.push({ name, lines: [] });
  const mod = (await import(pathToFileURL(`${dir}/${file}`).href)) as { run: () => Promise<void> };
  await mod.run();
}
if (writeDocs) {
  const page = performancePage(sections, { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown CPU', load: [loadBefore, loadavg()[0]!], node: process.version, partial: only.length > 0 });
  writeFileSync(fileURLToPath(new URL('../../docs/performance.md', import.meta.url)), page);
  print('\nwrote docs/performance.md');
}

function performancePage(measured: typeof sections, machine: { cpus: number; model: string; load: number[]; node: string; partial: boolean }): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const out = [
    '# Performance',
    '',
    '<!-- Written by `npm run bench -- --write-docs`. Do not edit by hand: run it again. -->',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine.cpus} × ${machine.model}, Node ${machine.node}, load average`,
    `${machine.load[0]!.toFixed(1)} at the start and ${machine.load[1]!.toFixed(1)} at the end${machine.partial ? ' (only some benchmarks ran)' : ''}.`,
    'Figures taken on a busy machine are higher; ratios (×) compare two things measured in the same run.',
    '`npm run bench -- NAME` runs the benchmarks whose file name holds NAME (`test/bench/NAME.bench.ts`).',
    '',
  ];
  for (const { name, lines } of measured) {
    out.push(`## ${name}`, '', '| figure | what it measures |', '|---|---|');
    for (const line of lines) {
      const m = /^\s*(\S+(?: \S+)?)\s{2,}(.*)$/.exec(line);
      out.push(m ? `| ${cell(m[1]!)} | ${cell(m[2]!)} |` : `| | ${cell(line.trim())} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
