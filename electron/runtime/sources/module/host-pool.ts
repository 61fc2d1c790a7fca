// Which tool host a module entry loads in: one per tools root and sandbox mode. A root is the
// unit of trust (a project's `.omp/tools` is not the user's own folder), so modules of different
// roots never share a process, globals or an event bus; per root (not per module) keeps a
// folder of 300 modules to one Node process (measured: ~57 MB with one module, ~78 MB with 300)
// instead of 300 of them, and the host starts once (~0.2-0.5 s). A `sandbox.perTool` mode
// that differs from the default puts that module in its own host, sandboxed as asked.
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxSpecFor } from '../process/sandbox-spec-for.ts';
import type { SourceContext } from '../types.ts';
import { writeShimBridges } from './shim/bridge-files.ts';
import { ToolHost } from './tool-host.ts';

/**
 * The module tool hosts of one owner (createRuntime makes one and closes it with itself), keyed by
 * what the host's process depends on, not by context object: the app builds a new context for
 * every reload, and a one-file edit must reuse the running host, not start another. A load
 * acquires its host by key; each load's tools release it when they become unreachable (index.ts),
 * and the host, unused, leaves the pool through the disposer it was given; shutdown() ends the rest.
 */
export class ModuleHostPool {
  readonly #hosts = new Map<string, ToolHost>();
  #closed = false;

  /** The host serving `root` under `ctx`'s settings, started on first use. */
  acquire(ctx: SourceContext, root: string, label: string): ToolHost {
    if (this.#closed) throw new Error('the module tool hosts were shut down with their runtime');
    const sandbox = sandboxSpecFor(ctx, label, root);
    const key = JSON.stringify([root, sandbox, ctx.env, ctx.cacheDir, ctx.workingDir]);
    const release = (unused: ToolHost) => {
      if (this.#hosts.get(key) === unused) this.#hosts.delete(key);
    };
    let host = this.#hosts.get(key);
    if (host) host.useContext(ctx);
    else {
      const bridgesDir = writableDir(join(ctx.cacheDir, 'module-shim'), `tooldesk-module-shim-${process.getuid?.() ?? 'user'}`);
      host = new ToolHost({
        ctx,
        root,
        sandbox,
        transformCacheDir: cacheDirFor(ctx, key),
        bridges: writeShimBridges(bridgesDir),
        bridgesDir,
        readOnlyPaths: codePaths(),
        onUnused: release,
      });
      this.#hosts.set(key, host);
    }
    return host;
  }

  /** The hosts serving this context's settings (tests). */
  hostsOf(ctx: SourceContext): ToolHost[] {
    return [...this.#hosts.values()].filter((host) => host.servesContext(ctx));
  }

  /** Every host of this pool (tests: none is left once its runtime closed). */
  all(): ToolHost[] {
    return [...this.#hosts.values()];
  }

  /**
   * Ends the hosts serving `ctx`'s settings, or every host: none outlives its owner. A tool listed
   * later starts its host again.
   */
  async shutdown(ctx?: SourceContext): Promise<void> {
    const hosts = [...this.#hosts.entries()].filter(([, host]) => !ctx || host.servesContext(ctx));
    for (const [key] of hosts) this.#hosts.delete(key);
    await Promise.all(hosts.map(([, host]) => host.shutdown()));
  }

  /** Ends every host and refuses new ones (the runtime closed). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.shutdown();
  }
}

function cacheDirFor(ctx: SourceContext, key: string): string | null {
  const dir = join(ctx.cacheDir, 'module-host', createHash('sha1').update(key).digest('hex').slice(0, 16));
  try {
    mkdirSync(dir, { recursive: true });
    return dir;
  } catch {
    return null;
  }
}

function writableDir(preferred: string, tmpName: string): string {
  try {
    mkdirSync(preferred, { recursive: true });
    return preferred;
  } catch {
    return join(tmpdir(), tmpName);
  }
}

let code: string[] | undefined;
/** The app's own code and packages: readable in the sandbox even when they live under /tmp. */
function codePaths(): string[] {
  if (code) return code;
  const paths = [dirname(fileURLToPath(import.meta.url))];
  try {
    const jiti = realpathSync(dirname(createRequire(import.meta.url).resolve('jiti/package.json')));
    paths.push(dirname(jiti));
  } catch {
    // packages elsewhere: nothing more to show
  }
  code = paths;
  return paths;
}
