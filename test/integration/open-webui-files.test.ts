// Open WebUI tools get the chat's attached files as `__files__`: copies in a per-call folder bound
// read-only into the sandbox (the session's own files folder stays hidden), removed afterwards.
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../electron/runtime/paths.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { hostApps } from '../support/host-app.ts';
import { realPython } from '../support/real-python.ts';
import { removeScratch, repoRoot, scratchInCheckout } from '../support/run-cli.ts';

vi.setConfig({ testTimeout: 60_000 });

const apps = hostApps();
let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  await apps.closeAll();
  await fake?.close();
  removeScratch();
});

describe('Open WebUI __files__', () => {
  it('hands the chat attachments to the tool as readable copies, hides the sessions folder and removes the copies', async () => {
    // Outside /tmp (the sandbox's private /tmp would hide the whole home): the sessions folder must be hidden on its own.
    const home = scratchInCheckout('owui-files-');
    mkdirSync(join(home, 'tools'), { recursive: true });
    cpSync(join(repoRoot, 'test/fixtures/tools/open-webui-files'), join(home, 'tools'), { recursive: true });
    const sessionsDir = appPaths(home).sessionsDir;
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: realPython(), groupDefaults: { owui_files: true }, permissionOverrides: { read_files: { executionPolicy: 'auto' } } }));
    fake = await startFakeOpenAI({ turns: [fakeTurn.toolCall('read_files', { probe: sessionsDir }), fakeTurn.text('read')] });
    const { client, events } = await apps.start(home);
    await client.setSettings({ patch: { providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }], activeProviderId: 'fake' } });
    const session = await client.createSession();
    const note = 'first line\nsecond line ✓\n';
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    await client.sendMessage({
      sessionId: session.id,
      text: 'read my notes',
      attachments: [
        { name: 'notes.txt', mediaType: 'text/plain', data: Buffer.from(note).toString('base64') },
        { name: 'dot.png', mediaType: 'image/png', data: png },
      ],
    });
    await expect.poll(() => events.some((e) => e.type === 'session.turn' && e.state === 'finished'), { timeout: 30_000 }).toBe(true);
    const finished = events.find((e) => e.type === 'tool.finished');
    if (finished?.type !== 'tool.finished') throw new Error('the tool did not finish');
    expect(finished.result.status).toBe('SUCCESS');
    const seen = finished.result.data as { files: { name: string; content: string; dir: string }[]; probe: unknown; in_metadata: number };
    // The text file arrives with its content; the image goes to the model only (as in Open WebUI).
    expect(seen.files).toEqual([{ name: 'notes.txt', type: 'file', size: Buffer.byteLength(note), content_type: 'text/plain', content: note, dir: expect.stringContaining(tmpdir()) }]);
    expect(seen.in_metadata).toBe(1);
    // The session's stored copies are not visible to the tool, only the call's: an empty folder in
    // its place, or no folder at all when the whole home is under the sandbox's private /tmp (a
    // checkout under /tmp).
    if (sessionsDir.startsWith(`${tmpdir()}/`)) expect(seen.probe).toBe('FileNotFoundError');
    else expect(seen.probe).toEqual([]);
    expect(existsSync(join(sessionsDir, `${session.id}.files`))).toBe(true);
    // The call's folder is gone once the call ended.
    expect(existsSync(seen.files[0]!.dir)).toBe(false);
  });
});
