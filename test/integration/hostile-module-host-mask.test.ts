// Issue 32 §12: a secret file created after a module tool host started is hidden from the next
// call. Real module tools in the real tool host under bubblewrap: the host's sandbox hides the
// `.env` and key files that existed when it started; one made later must not be readable by a
// later call of that long-lived process (the mask is computed per call; a stale host is replaced).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../electron/runtime/runner/sandbox-detect.ts';
import { loadModuleFactories } from '../../electron/runtime/sources/module/index.ts';
import type { SourceContext } from '../../electron/runtime/sources/types.ts';
import { testSourceContext, testToolContext, testModuleHosts } from '../support/tool-source-context.ts';

const MODULE = `import { readFileSync } from "node:fs";
export default function (pi: any) {
  pi.registerTool({
    name: "read_file", label: "read", description: "Reads a file.",
    parameters: { type: "object", properties: { path: { type: "string" } } },
    execute: async (_id: string, params: { path: string }) => {
      let text: string;
      try { text = "read: " + readFileSync(params.path, "utf8"); } catch (e: any) { text = "unreadable: " + e.code; }
      return { content: [{ type: "text", text }] };
    },
  });
}
`;

describe.skipIf(detectSandbox().kind !== 'bwrap')('a module tool host never keeps a stale mask', () => {
  let ctx: SourceContext | undefined;
  afterAll(() => ctx?.moduleHosts.shutdown());

  it('a .env or key file created after the host started is hidden from the next call', async () => {
    const root = mkdtempSync(join(tmpdir(), 'td-host-mask-'));
    writeFileSync(join(root, 'reader.ts'), MODULE);
    const work = mkdtempSync(join(tmpdir(), 'td-host-mask-wd-'));
    ctx = testSourceContext({ workingDir: work, sandboxMode: 'required' });
    const { groups } = await loadModuleFactories([{ root, path: join(root, 'reader.ts'), format: 'module' }], ctx);
    const read = groups.flatMap((g) => g.tools).find((t) => t.definition.function.name === 'read_file')!;
    const text = async (path: string) => String((await read.execute({ path }, testToolContext())).data);
    writeFileSync(join(work, 'notes.txt'), 'plain');
    expect(await text(join(work, 'notes.txt'))).toBe('read: plain');
    const [host] = testModuleHosts.hostsOf(ctx);
    const starts = host!.starts;
    // Made now, with the host running: the very next call must not read it.
    writeFileSync(join(work, '.env'), 'API_KEY=made-after-start');
    expect(await text(join(work, '.env'))).not.toContain('made-after-start');
    writeFileSync(join(work, 'deploy.key'), 'PRIVATE KEY');
    expect(await text(join(work, 'deploy.key'))).not.toContain('PRIVATE KEY');
    // Other files read as before; the host that hid too little is gone.
    expect(await text(join(work, 'notes.txt'))).toBe('read: plain');
    expect(host!.starts).toBeGreaterThan(starts);
    // Nothing new to hide: the same host serves the next call.
    const now = host!.starts;
    expect(await text(join(work, 'notes.txt'))).toBe('read: plain');
    expect(host!.starts).toBe(now);
  });
});
