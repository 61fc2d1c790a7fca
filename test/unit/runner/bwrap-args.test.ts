import { describe, expect, it } from 'vitest';
import { buildBwrapArgs, type BwrapPlan } from '../../../electron/runtime/runner/bwrap-args.ts';

const plan = (over: Partial<BwrapPlan> = {}): BwrapPlan => ({
  cwd: '/w', writable: ['/w'], readOnly: ['/t'], network: true,
  hideDirs: ['/h/.ssh'], hideFiles: ['/w/.env'], unsetEnv: ['SSH_AUTH_SOCK'], ...over,
});
const pos = (args: string[], ...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));

describe('buildBwrapArgs', () => {
  it('binds the root read-only, then a private /tmp, then the writable folders, then the protected ones read-only, then the masks', () => {
    const args = buildBwrapArgs(plan());
    expect(args.slice(0, 9)).toEqual(['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp']);
    const tool = pos(args, '--ro-bind', '/t', '/t');
    const work = pos(args, '--bind', '/w', '/w');
    const ssh = pos(args, '--tmpfs', '/h/.ssh', '--remount-ro', '/h/.ssh');
    const env = pos(args, '--ro-bind', '/dev/null', '/w/.env');
    expect(work).toBeGreaterThan(8);
    expect(tool).toBeGreaterThan(work);
    expect(ssh).toBeGreaterThan(tool);
    expect(env).toBeGreaterThan(tool);
    expect(args).not.toContain('/h');
  });

  it('pins, then guards, then binds read-only, all after every writable bind, whatever the nesting', () => {
    const args = buildBwrapArgs(plan({ writable: ['/h', '/h/proj'], pinned: ['/h/.config'], guarded: ['/h/.omp'], readOnly: ['/h/proj', '/h/.config/Tooldesk', '/h/proj/tools/t'] }));
    const lastWritable = pos(args, '--bind', '/h/proj', '/h/proj');
    const pin = pos(args, '--bind', '/h/.config', '/h/.config');
    const guard = pos(args, '--tmpfs', '/h/.omp', '--remount-ro', '/h/.omp');
    expect(pos(args, '--bind', '/h', '/h')).toBeLessThan(lastWritable);
    expect(pin).toBeGreaterThan(lastWritable);
    expect(guard).toBeGreaterThan(pin);
    for (const path of ['/h/proj', '/h/.config/Tooldesk', '/h/proj/tools/t']) expect(pos(args, '--ro-bind', path, path)).toBeGreaterThan(guard);
    expect(pos(args, '--ro-bind', '/h/proj', '/h/proj')).toBeLessThan(pos(args, '--tmpfs', '/h/.ssh'));
  });

  it('binds the read-only paths a command needs after the private /tmp and before the masks', () => {
    const args = buildBwrapArgs(plan({ readOnlyPaths: ['/tmp/app/resources/python'] }));
    const helper = pos(args, '--ro-bind', '/tmp/app/resources/python', '/tmp/app/resources/python');
    expect(helper).toBeGreaterThan(pos(args, '--tmpfs', '/tmp'));
    expect(helper).toBeLessThan(pos(args, '--tmpfs', '/h/.ssh'));
  });

  it('isolates everything, keeps the network unless the tool declared network: false, and ends with --', () => {
    const withNet = buildBwrapArgs(plan());
    for (const flag of ['--unshare-all', '--share-net', '--die-with-parent']) expect(withNet).toContain(flag);
    // The sandbox stays in the run's process group (see bwrap-args.ts and sandbox-early-kill.test.ts).
    expect(withNet).not.toContain('--new-session');
    expect(pos(withNet, '--cap-drop', 'ALL')).toBeGreaterThan(0);
    expect(pos(withNet, '--unsetenv', 'SSH_AUTH_SOCK')).toBeGreaterThan(0);
    expect(withNet.slice(-3)).toEqual(['--chdir', '/w', '--']);
    expect(buildBwrapArgs(plan({ network: false }))).not.toContain('--share-net');
  });

  it('binds writable exactly the folders it is given', () => {
    const args = buildBwrapArgs(plan({ writable: ['/h', '/t'], readOnly: [] }));
    expect(pos(args, '--bind', '/t', '/t')).toBeGreaterThan(0);
    expect(pos(args, '--bind', '/h', '/h')).toBeLessThan(pos(args, '--tmpfs', '/h/.ssh'));
    expect(buildBwrapArgs(plan({ writable: [] })).filter((a) => a === '--bind')).toEqual([]);
  });

  it('keeps only the named capabilities, added after dropping all', () => {
    expect(buildBwrapArgs(plan())).not.toContain('--cap-add');
    const args = buildBwrapArgs(plan({ keepCaps: ['CAP_SYS_ADMIN', 'CAP_SETPCAP'] }));
    const drop = pos(args, '--cap-drop', 'ALL');
    expect(pos(args, '--cap-add', 'CAP_SYS_ADMIN')).toBeGreaterThan(drop);
    expect(pos(args, '--cap-add', 'CAP_SETPCAP')).toBeGreaterThan(drop);
    expect(args.slice(-3)).toEqual(['--chdir', '/w', '--']);
  });
});
