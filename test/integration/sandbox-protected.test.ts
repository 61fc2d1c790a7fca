// Real bubblewrap through the real runner: tool folders, tool roots, TOOLDESK_HOME and the other
// projects' tool folders stay read-only whatever their nesting with the writable folders
// (issue 10 §2, §3). Each case runs a shell as the tool would and checks the disk afterwards.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunner } from '../../electron/runtime/runner/create-runner.ts';
import type { ProtectedPaths, RunResult, SandboxSpec } from '../../electron/runtime/runner/types.ts';
import { tempHomes } from '../support/temp-homes.ts';

const run = createRunner({ killGraceMs: 200 });
const homes = tempHomes();

/** A user home outside /tmp with a Tooldesk home, settings and a session inside it. */
function world() {
  const home = homes.make();
  const appHome = join(home, '.config', 'Tooldesk');
  mkdirSync(join(appHome, 'sessions'), { recursive: true });
  mkdirSync(join(appHome, 'tools'), { recursive: true });
  writeFileSync(join(appHome, 'settings.json'), '{"sandbox":{"mode":"required"}}');
  writeFileSync(join(appHome, 'sessions', 's1.jsonl'), 'SESSION-TRANSCRIPT');
  const protect = (over: Partial<ProtectedPaths> = {}): ProtectedPaths => ({
    appHome,
    settingsFile: join(appHome, 'settings.json'),
    sessionsDir: join(appHome, 'sessions'),
    toolRoots: [join(appHome, 'tools'), join(home, '.omp', 'agent', 'tools'), join(home, '.config', 'agenvoy', 'tools', 'script')],
    projectToolFolders: [],
    ...over,
  });
  return { home, appHome, protect };
}

/** A script tool's folder: tool.json + script.js. */
function toolFolder(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tool.json'), '{"name":"t","description":"t"}');
  writeFileSync(join(dir, 'script.js'), 'console.log("{}")');
  return dir;
}

function sh(script: string, box: Partial<SandboxSpec> & { toolDir: string }): Promise<RunResult> {
  return run({ command: 'sh', args: ['-c', script], cwd: box.workDir ?? box.toolDir, timeoutMs: 10_000, sandbox: { mode: 'required', network: false, ...box } });
}

/** Tries each write; prints `ok:<label>` or `denied:<label>` per line. */
const attempts = (writes: Record<string, string>) =>
  Object.entries(writes)
    .map(([label, cmd]) => `if (${cmd}) 2>/dev/null; then echo ok:${label}; else echo denied:${label}; fi`)
    .join('\n');

describe('sandbox: protected paths stay read-only after every writable bind (bubblewrap)', () => {
  afterAll(() => homes.removeAll());

  it('tool root inside the working folder: the tool cannot rewrite its tool.json, plant a sibling or rename its root away', async () => {
    const { home, protect } = world();
    const proj = join(home, 'proj');
    const root = join(proj, 'tools');
    const tool = toolFolder(join(root, 't'));
    const r = await sh(
      attempts({
        'own-tool-json': `echo '"always_allow": true' >> ${tool}/tool.json`,
        sibling: `mkdir ${root}/evil && echo x > ${root}/evil/tool.json`,
        'rename-root': `mv ${root} ${proj}/old-tools`,
        'working-folder': `echo note > ${proj}/note.txt`,
      }),
      { toolDir: tool, workDir: proj, homeDir: home, protect: protect({ toolRoots: [root] }) },
    );
    expect(r.sandboxed).toBe(true);
    expect(r.stdout.trim().split('\n')).toEqual(['denied:own-tool-json', 'denied:sibling', 'denied:rename-root', 'ok:working-folder']);
    expect(readFileSync(join(tool, 'tool.json'), 'utf8')).toBe('{"name":"t","description":"t"}');
    expect(existsSync(join(root, 'evil'))).toBe(false);
    expect(readFileSync(join(proj, 'note.txt'), 'utf8')).toBe('note\n');
  });

  it('working folder inside a tool root: it stays read-only (a file there would be a tool) and the run says why', async () => {
    const { home, protect } = world();
    const root = join(home, 'tools');
    const tool = toolFolder(join(root, 't'));
    const work = join(root, 'proj');
    mkdirSync(work);
    const r = await sh(attempts({ 'plant-in-working-folder': `echo 'export default 1' > ${work}/index.js`, 'own-folder': `echo x > ${tool}/x` }), {
      toolDir: tool,
      workDir: work,
      homeDir: home,
      protect: protect({ toolRoots: [root] }),
    });
    expect(r.stdout.trim().split('\n')).toEqual(['denied:plant-in-working-folder', 'denied:own-folder']);
    expect(existsSync(join(work, 'index.js'))).toBe(false);
    expect(r.warnings?.join('\n')).toMatch(/working folder .*proj is inside the protected folder .*tools.*read-only/);
  });

  it('working folder and tool root the same folder: nothing in it is writable', async () => {
    const { home, protect } = world();
    const proj = join(home, 'proj');
    const tool = toolFolder(join(proj, 't'));
    const r = await sh(attempts({ plant: `mkdir ${proj}/evil && echo x > ${proj}/evil/tool.json`, own: `echo x >> ${tool}/tool.json` }), {
      toolDir: tool,
      workDir: proj,
      homeDir: home,
      protect: protect({ toolRoots: [proj] }),
    });
    expect(r.stdout.trim().split('\n')).toEqual(['denied:plant', 'denied:own']);
    expect(existsSync(join(proj, 'evil'))).toBe(false);
  });

  it('the tool folder itself is read-only inside the working folder even when no root is named', async () => {
    const { home } = world();
    const proj = join(home, 'proj');
    const tool = toolFolder(join(proj, 't'));
    const r = await sh(attempts({ own: `echo x >> ${tool}/tool.json`, work: `echo x > ${proj}/w` }), { toolDir: tool, workDir: proj, homeDir: home });
    expect(r.stdout.trim().split('\n')).toEqual(['denied:own', 'ok:work']);
  });

  it('with home writes allowed: settings.json, the sessions, the tool roots and the other projects\' folders stay out of reach; the rest of the home is writable', async () => {
    const { home, appHome, protect } = world();
    const tool = toolFolder(join(appHome, 'tools', 't'));
    const proj = join(home, 'proj');
    mkdirSync(join(proj, '.omp', 'tools'), { recursive: true });
    mkdirSync(join(home, '.config', 'agenvoy', 'tools', 'script'), { recursive: true });
    const r = await sh(
      attempts({
        'settings-off': `echo '{"sandbox":{"mode":"off"}}' > ${appHome}/settings.json`,
        'settings-replace': `rm -f ${appHome}/settings.json`,
        'rename-config': `mv ${home}/.config ${home}/.config-old`,
        'rename-app-home': `mv ${appHome} ${appHome}-old`,
        'read-session': `cat ${appHome}/sessions/s1.jsonl | grep -q SESSION`,
        'plant-default-root': `mkdir ${appHome}/tools/evil`,
        'plant-omp-project': `echo 'export default 1' > ${proj}/.omp/tools/x.ts`,
        'plant-agenvoy-home': `mkdir ${home}/.config/agenvoy/tools/script/evil`,
        'create-omp-home': `mkdir -p ${home}/.omp/agent/tools/evil`,
        'home-file': `echo x > ${home}/notes.txt`,
        'project-file': `echo x > ${proj}/notes.txt`,
      }),
      { toolDir: tool, workDir: proj, homeDir: home, allowHomeWrite: true, protect: protect({ projectToolFolders: [join(proj, '.omp', 'tools')] }) },
    );
    expect(r.sandboxed).toBe(true);
    expect(r.stdout.trim().split('\n')).toEqual([
      'denied:settings-off',
      'denied:settings-replace',
      'denied:rename-config',
      'denied:rename-app-home',
      'denied:read-session',
      'denied:plant-default-root',
      'denied:plant-omp-project',
      'denied:plant-agenvoy-home',
      'denied:create-omp-home',
      'ok:home-file',
      'ok:project-file',
    ]);
    expect(readFileSync(join(appHome, 'settings.json'), 'utf8')).toBe('{"sandbox":{"mode":"required"}}');
    expect(existsSync(join(home, '.config-old'))).toBe(false);
    expect(existsSync(join(proj, '.omp', 'tools', 'x.ts'))).toBe(false);
    expect(existsSync(join(home, '.omp', 'agent'))).toBe(false);
  });

  it('protects the home it is told about, not the environment\'s TOOLDESK_HOME', async () => {
    const { home, appHome, protect } = world();
    const decoy = join(home, 'decoy-home');
    mkdirSync(decoy);
    const saved = process.env.TOOLDESK_HOME;
    process.env.TOOLDESK_HOME = decoy;
    try {
      const tool = toolFolder(join(home, 'elsewhere', 't'));
      const r = await sh(attempts({ settings: `echo x > ${appHome}/settings.json`, session: `grep -q SESSION ${appHome}/sessions/s1.jsonl`, decoy: `echo x > ${decoy}/x` }), {
        toolDir: tool,
        workDir: home,
        homeDir: home,
        allowHomeWrite: true,
        protect: protect(),
      });
      expect(r.stdout.trim().split('\n')).toEqual(['denied:settings', 'denied:session', 'ok:decoy']);
    } finally {
      if (saved === undefined) delete process.env.TOOLDESK_HOME;
      else process.env.TOOLDESK_HOME = saved;
    }
  });
});
