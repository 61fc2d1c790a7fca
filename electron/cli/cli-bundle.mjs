// The `tooldesk` command runs from a bundle in out/cli/ (esbuild: one entry, a chunk per lazily
// imported command, packages left in node_modules). `npm install` builds it (`prepare`), and
// bin.mjs rebuilds it when any file it was built from changed since: the manifest lists them.
// Plain JavaScript, so bin.mjs can check and build without a TypeScript loader.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const cliOutDir = (root = projectRoot) => join(root, 'out', 'cli');
const MANIFEST = 'manifest.json';
/** Chunks no build refers to any more are removed once this old (a long-running serve may still import one). */
const PRUNE_AFTER_MS = 7 * 24 * 3600 * 1000;

/**
 * @param {string} [outDir]
 * @returns {{ fresh: true, entry: string } | { fresh: false, reason: string }}
 */
export function cliBundleState(outDir = cliOutDir()) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(outDir, MANIFEST), 'utf8'));
  } catch {
    return { fresh: false, reason: 'the command line has not been built yet' };
  }
  const entry = join(outDir, 'main.js');
  if (!existsSync(entry)) return { fresh: false, reason: `${relative(projectRoot, entry)} is missing` };
  for (const input of manifest.inputs) {
    let mtime;
    try {
      mtime = statSync(resolve(manifest.root, input)).mtimeMs;
    } catch {
      return { fresh: false, reason: `${input} is gone` };
    }
    if (mtime > manifest.builtAt) return { fresh: false, reason: `${input} changed` };
  }
  return { fresh: true, entry };
}

/**
 * Packages stay in node_modules when they ship native code or binaries, find files beside
 * themselves at run time, or are loaders and compilers; every other package is bundled, since
 * loading hundreds of small files (ajv, zod, execa, the MCP SDK) cost more than all our code.
 */
const OUTSIDE_CLI = /^(?:@napi-rs\/keyring|esbuild|jiti|tsx|typescript|pdfjs-dist|electron|electron-store|electron-vite|vite|bufferutil|utf-8-validate|@anthropic-ai\/mcpb)(?:\/|$)/;
/** The module tool host bundles only these (many small files each); its other packages stay outside. */
const INSIDE_HOST = /^(?:@sinclair\/typebox|zod)(?:\/|$)/;
/** Bundled CommonJS packages `require` Node's built-ins: give each chunk a require to do it with. */
const REQUIRE_BANNER = "import { createRequire as __tooldeskCreateRequire } from 'node:module'; const require = __tooldeskCreateRequire(import.meta.url);";

/** An esbuild plugin leaving the bare imports `outside` says yes to in node_modules. */
function external(name, outside) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') || outside(args.path) ? { path: args.path, external: true } : undefined));
    },
  };
}

const SETTINGS_VALIDATOR = /electron[\\/]runtime[\\/]store[\\/]settings-validator\.ts$/;

/**
 * An esbuild plugin putting ajv's standalone code for the settings schema in place of
 * settings-validator.ts, which compiles it at run time: the same schema and options, read from
 * that module itself (built on the side and imported here).
 */
function precompiledSettingsValidator(esbuild, root) {
  return {
    name: 'precompiled-settings-validator',
    setup(build) {
      build.onLoad({ filter: SETTINGS_VALIDATOR }, async (args) => {
        const built = await esbuild.build({ entryPoints: [args.path], bundle: true, write: false, format: 'esm', platform: 'node', packages: 'external', logLevel: 'silent', absWorkingDir: root, outdir: join(root, 'out') });
        const source = built.outputFiles[0].text.replace(/^export default .*$/m, '').replace(/^export \{[^}]*\};?$/m, '');
        // A fresh clone has no out/ yet (this runs from `npm install`'s prepare step).
        mkdirSync(join(root, 'out'), { recursive: true });
        const probe = join(root, 'out', `.settings-validator-${process.pid}.mjs`);
        writeFileSync(probe, `${source}\nexport { SETTINGS_SCHEMA, SETTINGS_VALIDATOR_OPTIONS };\n`);
        let module;
        try {
          module = await import(`${pathToFileURL(probe).href}?${Date.now()}`);
        } finally {
          rmSync(probe, { force: true });
        }
        const require = createRequire(join(root, 'package.json'));
        const { Ajv } = require('ajv');
        const standaloneCode = require('ajv/dist/standalone').default;
        const ajv = new Ajv({ ...module.SETTINGS_VALIDATOR_OPTIONS, code: { source: true, esm: true } });
        return { contents: standaloneCode(ajv, ajv.compile(module.SETTINGS_SCHEMA)), loader: 'js', resolveDir: root };
      });
    },
  };
}

/**
 * Builds out/cli: main.js (the CLI, a chunk per command) and module-host.js (the module tool host,
 * one file, started as its own Node process). Files are written whole (temp + rename) and the
 * manifest last, so a concurrent `tooldesk` sees either the old build or the new one.
 * @param {{ root?: string, outDir?: string }} [options]
 * @returns {Promise<{ entry: string, inputs: string[], ms: number }>}
 */
export async function buildCliBundle(options = {}) {
  const root = options.root ?? projectRoot;
  const outDir = options.outDir ?? cliOutDir(root);
  const started = Date.now();
  const t0 = performance.now();
  const esbuild = createRequire(import.meta.url)('esbuild');
  const common = { bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent', absWorkingDir: root, outdir: outDir };
  const [cli, host] = await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: { main: join(root, 'electron/cli/main.ts') },
      splitting: true,
      banner: { js: REQUIRE_BANNER },
      plugins: [external('packages-outside-cli', (path) => OUTSIDE_CLI.test(path)), precompiledSettingsValidator(esbuild, root)],
    }),
    esbuild.build({
      ...common,
      entryPoints: { 'module-host': join(root, 'electron/runtime/sources/module/host/main.ts') },
      plugins: [external('packages-outside-host', (path) => !INSIDE_HOST.test(path))],
    }),
  ]);
  mkdirSync(outDir, { recursive: true });
  const written = new Set([MANIFEST]);
  for (const file of [...cli.outputFiles, ...host.outputFiles]) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
    written.add(relative(outDir, file.path));
  }
  // Packages count through the lock file (npm install rewrites it): fewer files to stat per start.
  const inputs = new Set([relative(root, fileURLToPath(import.meta.url)), 'package.json', 'package-lock.json']);
  for (const result of [cli, host]) for (const input of Object.keys(result.metafile.inputs)) if (!input.includes('node_modules/')) inputs.add(input);
  const manifest = { root, builtAt: started, inputs: [...inputs].sort(), outputs: { ...cli.metafile.outputs, ...host.metafile.outputs } };
  const temp = join(outDir, `${MANIFEST}.${process.pid}.tmp`);
  writeFileSync(temp, JSON.stringify(manifest));
  renameSync(temp, join(outDir, MANIFEST));
  for (const name of readdirSync(outDir)) {
    if (written.has(name)) continue;
    const path = join(outDir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { force: true });
    } catch {
      // removed by a concurrent build
    }
  }
  return { entry: join(outDir, 'main.js'), inputs: manifest.inputs, ms: performance.now() - t0 };
}

// `node electron/cli/cli-bundle.mjs` (npm's `prepare`): build and say so in one line.
if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const built = await buildCliBundle();
  console.log(`tooldesk: built the command line into ${relative(process.cwd(), dirname(built.entry)) || '.'} (${built.inputs.length} files, ${Math.round(built.ms)} ms)`);
}
