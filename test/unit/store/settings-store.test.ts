import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '../../../shared/settings.ts';
import { openSettingsStore, SettingsValidationError } from '../../../electron/runtime/store/settings-store.ts';

vi.mock('electron', () => ({ default: {} }));

const tmp = () => mkdtempSync(join(tmpdir(), 'td-'));

describe('settings store (conf)', () => {
  it('creates settings.json with the defaults', () => {
    const home = tmp();
    const store = openSettingsStore(home);
    expect(store.get()).toEqual(defaultSettings());
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toEqual(defaultSettings());
    expect(store.warnings).toEqual([]);
    store.close();
  });

  it('fills missing keys and keeps the ones present', () => {
    const home = tmp();
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ systemPrompt: 'be brief', limits: { maxSteps: 7 } }));
    const store = openSettingsStore(home);
    expect(store.get().systemPrompt).toBe('be brief');
    expect(store.get().limits.maxSteps).toBe(7);
    expect(store.get().limits.truncateChars).toBe(8000);
    expect(store.get().groupDefaults).toEqual({});
    expect(store.warnings).toEqual([]);
    expect(JSON.parse(readFileSync(store.path, 'utf8')).limits.truncateChars).toBe(8000);
    store.close();
  });

  it('sets keys, dotted paths and patches, persists them and notifies listeners', () => {
    const home = tmp();
    const store = openSettingsStore(home);
    const seen: number[] = [];
    const dispose = store.onDidChange((s, prev) => seen.push(s.limits.maxSteps - prev.limits.maxSteps));
    store.set('limits.maxSteps', 30);
    store.set('groupDefaults', { files: true });
    store.update({ groupDefaults: { web: false }, limits: { toolTimeoutMs: 5 } } as never);
    expect(store.get().groupDefaults).toEqual({ files: true, web: false });
    expect(store.get().limits).toMatchObject({ maxSteps: 30, toolTimeoutMs: 5, truncateChars: 8000 });
    expect(seen).toEqual([5, 0, 0]);
    dispose();
    store.set('systemPrompt', 'x');
    expect(seen).toHaveLength(3);
    store.close();
    const again = openSettingsStore(home);
    expect(again.get().groupDefaults).toEqual({ files: true, web: false });
    expect(again.get().systemPrompt).toBe('x');
    again.close();
  });

  it('rejects invalid writes and keeps the previous value', () => {
    const store = openSettingsStore(tmp());
    expect(() => store.set('limits.maxSteps', 0)).toThrow(SettingsValidationError);
    expect(() => store.set('sandbox.mode', 'sometimes')).toThrow(/sandbox\.mode/);
    expect(() => store.update({ providers: [{ id: 'x' }] } as never)).toThrow(/providers\.0/);
    // A relative project folder would approve that folder in every project.
    expect(() => store.set('trustedProjectFolders', ['.omp/tools'])).toThrow(/trustedProjectFolders\.0/);
    expect(store.get()).toEqual(defaultSettings());
    store.set('trustedProjectFolders', ['/home/me/proj/.omp/tools', 'C:\\proj\\.omp\\tools']);
    expect(store.get().trustedProjectFolders).toHaveLength(2);
    store.close();
  });

  it('names the allowed values, and addresses list items by index', () => {
    const store = openSettingsStore(tmp());
    expect(() => store.set('sandbox.mode', 'sometimes')).toThrow('sandbox.mode must be equal to one of the allowed values: "auto", "required", "off"');
    store.set('providers', [{ id: 'a', name: 'A', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm' }]);
    store.set('providers.0.model', 'n');
    store.set('providers.0.maxTokens', 256);
    expect(store.get().providers[0]).toMatchObject({ id: 'a', model: 'n', maxTokens: 256 });
    expect(() => store.set('providers.0.maxTokensParam', 'tokens')).toThrow(/providers\.0\.maxTokensParam must be equal to one of the allowed values: "max_tokens", "max_completion_tokens"/);
    expect(() => store.set('providers.2.model', 'x')).toThrow(/"providers\.2\.model" is not a valid key path: providers is a list of 1/);
    expect(() => store.set('providers.0.apiKey', 'sk-x')).toThrow(/providers\.0 must NOT have additional properties \(apiKey\)/);
    store.close();
  });

  it('a corrupt file is backed up and replaced by defaults with a warning', () => {
    const home = tmp();
    writeFileSync(join(home, 'settings.json'), '{"systemPrompt": "half');
    const store = openSettingsStore(home);
    expect(store.get()).toEqual(defaultSettings());
    expect(store.warnings).toHaveLength(1);
    expect(store.warnings[0]).toMatch(/not valid JSON/);
    const backups = readdirSync(home).filter((f) => f.startsWith('settings.json.corrupt-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(home, backups[0]!), 'utf8')).toBe('{"systemPrompt": "half');
    expect(store.warnings[0]).toContain(backups[0]);
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toEqual(defaultSettings());
    store.close();
  });

  it('a schema-invalid file is backed up and replaced too, naming the bad key', () => {
    const home = tmp();
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ limits: { maxSteps: 'many' } }));
    const store = openSettingsStore(home);
    expect(store.get().limits.maxSteps).toBe(25);
    expect(store.warnings[0]).toMatch(/limits\.maxSteps must be integer/);
    expect(readdirSync(home).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
    store.close();
  });

  it('a JSON array or null file is treated as corrupt', () => {
    const home = tmp();
    writeFileSync(join(home, 'settings.json'), '[]');
    const store = openSettingsStore(home);
    expect(store.warnings[0]).toMatch(/JSON object/);
    store.close();
  });

  it('accepts a custom backend (the electron-store constructor shape)', () => {
    const home = tmp();
    let data: Record<string, unknown> = {};
    const listeners = new Set<() => void>();
    const store = openSettingsStore(home, {
      backend: ({ cwd, configName }) => ({
        path: join(cwd, `${configName}.json`),
        get store() {
          return structuredClone(data);
        },
        set store(value) {
          data = structuredClone(value);
          for (const l of listeners) l();
        },
        onDidAnyChange(cb) {
          listeners.add(cb);
          return () => listeners.delete(cb);
        },
      }),
    });
    store.set('systemPrompt', 'hi');
    expect(data.systemPrompt).toBe('hi');
    expect(existsSync(join(home, 'settings.json'))).toBe(false);
    store.close();
  });
});

describe('settings store: changes made by another process', () => {
  it('applies a valid outside change, ignores an invalid one with a warning', () => {
    let data: Record<string, unknown> = {};
    const listeners = new Set<() => void>();
    const fire = () => listeners.forEach((l) => l());
    const store = openSettingsStore(tmp(), {
      backend: () => ({
        path: '/x/settings.json',
        get store() {
          return structuredClone(data);
        },
        set store(value) {
          data = structuredClone(value);
          fire();
        },
        onDidAnyChange(cb) {
          listeners.add(cb);
          return () => listeners.delete(cb);
        },
      }),
    });
    const seen: string[] = [];
    store.onDidChange((s) => seen.push(s.systemPrompt));
    data = { ...data, systemPrompt: 'from the CLI' };
    fire();
    expect(store.get().systemPrompt).toBe('from the CLI');
    data = { ...data, limits: { maxSteps: -1 } };
    fire();
    expect(store.get().limits.maxSteps).toBe(25);
    expect(store.warnings.at(-1)).toMatch(/changed on disk to something invalid \(limits\.maxSteps must be >= 1\)/);
    fire(); // unchanged: no event
    expect(seen).toEqual(['from the CLI']);
    store.close();
  });
});

describe('settings store (electron-store backend)', () => {
  it('electron-store writes the same file conf reads', async () => {
    const { electronStoreBackend } = await import('../../../electron/main/electron-store-backend.ts');
    const home = tmp();
    const app = openSettingsStore(home, { backend: electronStoreBackend });
    app.set('systemPrompt', 'from electron-store');
    app.close();
    const cli = openSettingsStore(home);
    expect(cli.get().systemPrompt).toBe('from electron-store');
    cli.set('limits.maxSteps', 3);
    cli.close();
    const app2 = openSettingsStore(home, { backend: electronStoreBackend });
    expect(app2.get().limits.maxSteps).toBe(3);
    app2.close();
  });
});
