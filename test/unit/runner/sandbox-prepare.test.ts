import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareSandboxedCommand } from '../../../electron/runtime/runner/sandbox.ts';
import { toolWarnings } from '../../../electron/runtime/runner/run-warnings.ts';
import type { SandboxDetection } from '../../../electron/runtime/runner/sandbox-detect.ts';
import type { RunSpec, SandboxSpec } from '../../../electron/runtime/runner/types.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'td-'));
const bwrap: SandboxDetection = { kind: 'bwrap', available: true, binary: '/usr/bin/bwrap', prlimit: '/usr/bin/prlimit', detail: 'ok' };
const missing: SandboxDetection = { kind: 'none', available: false, prlimit: '/usr/bin/prlimit', detail: 'bubblewrap (bwrap) is not installed.' };
const windows: SandboxDetection = { kind: 'none', available: false, detail: 'Windows has no tool sandbox: tools run with your full user rights.' };
const mac: SandboxDetection = { kind: 'sandbox-exec', available: true, binary: '/usr/bin/sandbox-exec', detail: 'ok' };

function spec(box: Partial<SandboxSpec> | undefined, dir = tmp()): RunSpec {
  return { command: 'python3', args: ['x.py'], cwd: dir, timeoutMs: 1000, ...(box ? { sandbox: { mode: 'auto', toolDir: dir, network: true, ...box } } : {}) };
}

describe('prepareSandboxedCommand', () => {
  const homes = tempHomes();
  afterAll(() => homes.removeAll());

  it('keeps a cut-short secret-file search apart from the warnings; a tool run reports both', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'a', 'b', 'c', 'd', 'e', 'f', 'g'), { recursive: true });
    const p = prepareSandboxedCommand(spec({ homeDir: tmp(), writableDirs: [join(dir, 'missing')] }, dir), bwrap, 'linux');
    p.cleanup?.();
    expect(p.secretScanNotes).toEqual([expect.stringMatching(/^Only part of .+ was searched for secret files/)]);
    expect(p.warnings).toEqual([expect.stringMatching(/^The writable folder .+missing does not exist/)]);
    expect(toolWarnings(p)).toEqual([...p.warnings!, ...p.secretScanNotes!]);
  });

  it('wraps the command in bwrap, with prlimit bounds inside, when bubblewrap works', () => {
    const p = prepareSandboxedCommand(spec({ maxMemoryBytes: 1 << 30, maxProcesses: 64 }), bwrap, 'linux');
    p.cleanup?.();
    expect(p.sandboxed).toBe(true);
    const line = [p.command, ...p.args];
    if (p.cleanup) {
      // Root with a writable pids cgroup: the run joins its own cgroup first, and the watchdog reads its events.
      expect(line.slice(0, 3)).toEqual(['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"']);
      expect(p.watch?.pidsEventsFile).toMatch(/pids\.events$/);
    }
    const bw = line.indexOf('/usr/bin/bwrap');
    expect(bw).toBeGreaterThanOrEqual(0);
    const sep = line.indexOf('--', bw);
    expect(line.slice(sep + 1)).toEqual(['/usr/bin/prlimit', `--data=${1 << 30}`, ...(process.getuid?.() === 0 ? [] : [expect.stringMatching(/^--nproc=\d+$/)]), '--', 'python3', 'x.py']);
    expect(p.watch?.maxProcesses).toBe(64);
  });

  it('auto mode without a sandbox runs unsandboxed with a note; required refuses; off says nothing', () => {
    const auto = prepareSandboxedCommand(spec({ mode: 'auto' }), missing, 'linux');
    expect(auto).toMatchObject({ sandboxed: false, command: 'python3', args: ['x.py'] });
    expect(auto.note).toMatch(/^Not sandboxed: bubblewrap/);
    expect(auto.refuse).toBeUndefined();
    const required = prepareSandboxedCommand(spec({ mode: 'required' }), missing, 'linux');
    expect(required.refuse).toBe(true);
    expect(required.note).toMatch(/required.*unavailable/);
    const off = prepareSandboxedCommand(spec({ mode: 'off' }), bwrap, 'linux');
    expect(off).toMatchObject({ sandboxed: false, command: 'python3' });
    expect(off.note).toBeUndefined();
    expect(prepareSandboxedCommand(spec(undefined), bwrap, 'linux')).toMatchObject({ sandboxed: false, command: 'python3', args: ['x.py'] });
  });

  it('says plainly that Windows has no sandbox, and refuses there in required mode', () => {
    const p = prepareSandboxedCommand(spec({}), windows, 'win32');
    expect(p).toMatchObject({ sandboxed: false, command: 'python3', args: ['x.py'] });
    expect(p.note).toContain('Windows has no tool sandbox');
    expect(prepareSandboxedCommand(spec({ mode: 'required' }), windows, 'win32').refuse).toBe(true);
  });

  it('uses sandbox-exec with a generated profile on macOS', () => {
    const dir = tmp();
    const p = prepareSandboxedCommand(spec({ network: false }, dir), mac, 'darwin');
    expect(p.command).toBe('/usr/bin/sandbox-exec');
    expect(p.args[0]).toBe('-p');
    expect(p.args[1]).toContain('(deny network*)');
    expect(p.args.slice(2)).toEqual(['python3', 'x.py']);
    expect(p.env?.TMPDIR).toBeTruthy();
  });

  it('masks existing credentials and secret files, keeps the home read-only when the working folder is the home', () => {
    const home = homes.make();
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.git-credentials'), 'x');
    const tool = tmp();
    writeFileSync(join(tool, '.env'), 'x');
    const p = prepareSandboxedCommand(spec({ homeDir: home, toolDir: tool, workDir: home }, tool), bwrap, 'linux');
    const a = p.args.join(' ');
    expect(a).toContain(`--tmpfs ${home}/.ssh --remount-ro ${home}/.ssh`);
    expect(a).toContain(`--ro-bind /dev/null ${home}/.git-credentials`);
    expect(a).toContain(`--ro-bind /dev/null ${tool}/.env`);
    expect(a).not.toContain(`--bind ${home} ${home}`);
    // The home is the default working folder: read-only there is expected, so no warning.
    expect(p.warnings?.join(' ') ?? '').not.toMatch(/contains your home/);
    const above = prepareSandboxedCommand(spec({ homeDir: home, toolDir: tool, workDir: dirname(home) }, tool), bwrap, 'linux');
    expect(above.args.join(' ')).not.toContain(`--bind ${dirname(home)} `);
    expect(above.warnings?.join(' ')).toMatch(/contains your home/);
  });

  it('several writable folders: each bound writable, protected paths inside them read-only after, missing or home-holding ones refused with a warning', () => {
    const home = homes.make();
    const work = homes.make();
    const [a, b, outer] = ['a', 'b', 'outer'].map((n) => {
      mkdirSync(join(work, n));
      return join(work, n);
    });
    const appHome = join(outer, 'tooldesk');
    mkdirSync(appHome);
    const p = prepareSandboxedCommand(
      spec(
        {
          toolDir: work,
          toolDirIsWorkingFolder: true,
          homeDir: home,
          writableDirs: [a, b, outer, join(work, 'missing'), dirname(home)],
          protect: { appHome, settingsFile: join(appHome, 'settings.json'), sessionsDir: join(appHome, 'sessions'), toolRoots: [], projectToolFolders: [] },
        },
        work,
      ),
      bwrap,
      'linux',
    );
    p.cleanup?.();
    const args = p.args;
    const at = (flag: string, path: string) => args.findIndex((x, i) => x === flag && args[i + 1] === path);
    // The working folder first (read-only), then every writable folder, then the protected one over them.
    expect(at('--ro-bind', work)).toBeGreaterThan(0);
    for (const w of [a, b, outer]) expect(at('--bind', w)).toBeGreaterThan(at('--ro-bind', work));
    expect(at('--ro-bind', appHome)).toBeGreaterThan(at('--bind', outer));
    expect(at('--bind', join(work, 'missing'))).toBe(-1);
    expect(at('--bind', dirname(home))).toBe(-1);
    expect(p.warnings).toEqual(
      expect.arrayContaining([
        `The writable folder ${join(work, 'missing')} does not exist, so the process cannot write there; create it first.`,
        `The writable folder ${dirname(home)} contains your home, so it stays read-only in the sandbox; name a folder inside it instead.`,
      ]),
    );
  });

  it('a tool folder (not a working folder) stays protected over a writable folder inside it', () => {
    const dir = homes.make();
    mkdirSync(join(dir, 'out'));
    const p = prepareSandboxedCommand(spec({ toolDir: dir, writableDirs: [join(dir, 'out')] }, dir), bwrap, 'linux');
    p.cleanup?.();
    expect(p.warnings).toContain(`The writable folder ${join(dir, 'out')} is inside the protected folder ${dir} (a tool folder, tool root or Tooldesk's own folder), so it stays read-only in the sandbox.`);
  });

  it('a folder under /tmp the command needs is bound before a writable folder inside it, never over it', () => {
    const pkg = tmp();
    const data = join(pkg, 'dist');
    mkdirSync(data);
    const work = tmp();
    const p = prepareSandboxedCommand(
      { command: 'node', args: [join(data, 'index.js')], cwd: work, timeoutMs: 1000, sandbox: { mode: 'auto', toolDir: work, toolDirIsWorkingFolder: true, network: true, writableDirs: [data], readOnlyPaths: [pkg] } },
      bwrap,
      'linux',
    );
    p.cleanup?.();
    const line = [p.command, ...p.args];
    const at = (flag: string, path: string) => line.findIndex((a, i) => a === flag && line[i + 1] === path && line[i + 2] === path);
    const lastAt = (flag: string, path: string) => line.findLastIndex((a, i) => a === flag && line[i + 1] === path && line[i + 2] === path);
    expect(at('--ro-bind', pkg)).toBeGreaterThan(line.indexOf('/tmp'));
    expect(at('--ro-bind', pkg)).toBeLessThan(at('--bind', data));
    expect(lastAt('--ro-bind', pkg)).toBeLessThan(at('--bind', data));
  });
});

