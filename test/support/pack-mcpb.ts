// `.mcpb` bundles packed in the test with the real mcpb CLI (node_modules/@anthropic-ai/mcpb).
// The server is server-everything (its get-env tool shows what env it got), bundled with its
// dependencies into server/index.js as a real bundle ships them: it runs wherever the bundle is
// unpacked, whatever the sandbox shows of the checkout (one under /tmp is hidden from it).
import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVERYTHING } from './mcp-servers.ts';
import { repoRoot, scratchInCheckout } from './run-cli.ts';

const MCPB = join(repoRoot, 'node_modules', '.bin', 'mcpb');

/** Acme Weather: a sensitive `api_key`, a `workspace` directory (both required), `units` with a default. */
export function acmeManifest(version: string): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name: 'acme-weather',
    display_name: 'Acme Weather',
    version,
    description: 'Forecasts from Acme',
    author: { name: 'Acme Labs', email: 'dev@acme.example' },
    server: {
      type: 'node',
      entry_point: 'server/index.js',
      mcp_config: { command: 'node', args: ['${__dirname}/server/index.js', '${user_config.workspace}'], env: { ACME_API_KEY: '${user_config.api_key}', ACME_UNITS: '${user_config.units}' } },
    },
    tools: [{ name: 'echo', description: 'Echo' }, { name: 'get-env', description: 'Environment' }],
    prompts: [{ name: 'forecast', text: 'Forecast for ${arguments.city}', arguments: ['city'] }],
    compatibility: { platforms: ['linux', 'darwin', 'win32'] },
    privacy_policies: ['https://acme.example/privacy'],
    user_config: {
      api_key: { type: 'string', title: 'API key', description: 'Your Acme key', sensitive: true, required: true },
      workspace: { type: 'directory', title: 'Workspace', description: 'Where forecasts are saved', required: true },
      units: { type: 'string', title: 'Units', description: 'metric or imperial', default: 'metric' },
    },
  };
}

let everythingServer: Uint8Array | undefined;
/** server-everything and its dependencies in one ES module (built once per test file). */
function everythingServerSource(): Uint8Array {
  everythingServer ??= buildSync({
    stdin: { contents: `process.argv.splice(2, 0, 'stdio');\nawait import(${JSON.stringify(EVERYTHING)});\n`, resolveDir: repoRoot, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    minify: true,
    write: false,
    logLevel: 'error',
    // Bundled CommonJS dependencies call require(): give the module one.
    banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  }).outputFiles[0]!.contents;
  return everythingServer;
}

/** Packs `manifest` (with the everything server as its entry point); returns the .mcpb path. */
export function packBundle(manifest: Record<string, unknown>, fileName = `${String(manifest.name)}-${String(manifest.version)}.mcpb`): string {
  const dir = scratchInCheckout('td-mcpb-src-');
  mkdirSync(join(dir, 'server'));
  writeFileSync(join(dir, 'server', 'index.js'), everythingServerSource());
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const out = join(scratchInCheckout('td-mcpb-out-'), fileName);
  const packed = spawnSync(MCPB, ['pack', dir, out], { encoding: 'utf8', timeout: 60_000 });
  if (packed.status !== 0) throw new Error(`mcpb pack ${dir} failed (${packed.status}): ${packed.stderr}${packed.stdout}`);
  return out;
}
