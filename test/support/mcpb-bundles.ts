// `.mcpb` bundles packed with the real mcpb CLI, whose server (`server/index.js`) is
// server-everything imported from the checkout's node_modules. Source and bundle are made in
// scratch folders inside the checkout so a sandboxed server resolves that import; the test file
// removes them with removeScratch() (run-cli.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVERYTHING } from './mcp-servers.ts';
import { repoRoot, scratchInCheckout } from './run-cli.ts';

/** Packs `manifest` (its entry point `server/index.js`) into FILE_NAME; returns the bundle's path. */
export function packEverythingBundle(manifest: Record<string, unknown>, fileName: string): string {
  const dir = scratchInCheckout('td-mcpb-src-');
  mkdirSync(join(dir, 'server'));
  writeFileSync(join(dir, 'server', 'index.js'), `process.argv.splice(2, 0, 'stdio');\nawait import(${JSON.stringify(EVERYTHING)});\n`);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const out = join(scratchInCheckout('td-mcpb-out-'), fileName);
  const packed = spawnSync(join(repoRoot, 'node_modules', '.bin', 'mcpb'), ['pack', dir, out], { encoding: 'utf8', timeout: 60_000 });
  if (packed.status !== 0) throw new Error(`mcpb pack ${dir} failed (${packed.status}): ${packed.stderr}${packed.stdout}`);
  return out;
}
