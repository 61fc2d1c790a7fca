// Saving a provider from Settings keeps the fields the form does not edit.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { ProviderEditor } from '../../../renderer/src/settings/provider-editor.tsx';
import { AppProvider } from '../../../renderer/src/store/app-context.tsx';
import { createAppStore } from '../../../renderer/src/store/create-app-store.ts';
import type { ProviderInfo } from '../../../shared/api.ts';
import { defaultSettings, type ProviderConfig, type Settings } from '../../../shared/settings.ts';
import { fakeApi } from './fake-api.ts';

const stored: ProviderConfig = {
  id: 'p',
  name: 'P',
  kind: 'openai-compatible',
  baseURL: 'http://127.0.0.1:1/v1',
  model: 'm',
  headers: { 'X-Org': 'acme' },
  temperature: 0.2,
  maxTokens: 512,
  apiKeySecret: 'provider.p.apiKey',
};

async function mountEditor(provider: ProviderConfig) {
  const settings: Settings = { ...defaultSettings(), providers: [provider], activeProviderId: provider.id };
  const fake = fakeApi({ getSettings: () => settings, setSettings: ({ patch }: { patch: Partial<Settings> }) => ({ ...settings, ...patch }) });
  const store = createAppStore(fake.api);
  await store.init();
  const info: ProviderInfo = { ...provider, active: true, hasApiKey: Boolean(provider.apiKeySecret) };
  render(() => (
    <AppProvider value={{ ...store, openVariable: () => {}, insertIntoComposer: () => {}, focusComposer: () => {} }}>
      <ProviderEditor provider={info} onSaved={() => {}} onDeleted={() => {}} />
    </AppProvider>
  ));
  return fake;
}

const savedProviders = (fake: ReturnType<typeof fakeApi>): ProviderConfig[] => fake.calls.setSettings!.mock.calls.at(-1)![0].patch.providers;
const savedSecrets = (fake: ReturnType<typeof fakeApi>): Record<string, string | null> | undefined => fake.calls.setSettings!.mock.calls.at(-1)![0].secrets;
/** A save is one call: setSettings carries the key; the secret methods are not used. */
const secretCalls = (fake: ReturnType<typeof fakeApi>) => [...(fake.calls.setSecret?.mock.calls ?? []), ...(fake.calls.deleteSecret?.mock.calls ?? [])];

describe('ProviderEditor save', () => {
  it('keeps headers, temperature and maxTokens it does not show', async () => {
    const fake = await mountEditor(stored);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.calls.setSettings).toHaveBeenCalled());
    expect(savedProviders(fake)[0]).toMatchObject({ headers: { 'X-Org': 'acme' }, temperature: 0.2, maxTokens: 512, apiKeySecret: 'provider.p.apiKey' });
    expect(fake.calls.setSettings).toHaveBeenCalledTimes(1);
    expect(savedSecrets(fake) ?? {}).toEqual({});
    expect(secretCalls(fake)).toEqual([]);
  });

  it('saves a typed key with the provider in one call', async () => {
    const { apiKeySecret: _none, ...withoutKey } = stored;
    const fake = await mountEditor(withoutKey);
    fireEvent.input(screen.getByPlaceholderText('none'), { target: { value: 'sk-new' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.calls.setSettings).toHaveBeenCalled());
    expect(fake.calls.setSettings).toHaveBeenCalledTimes(1);
    expect(savedSecrets(fake)).toEqual({ 'provider.p.apiKey': 'sk-new' });
    expect(savedProviders(fake)[0]).toMatchObject({ apiKeySecret: 'provider.p.apiKey', headers: { 'X-Org': 'acme' } });
    expect(secretCalls(fake)).toEqual([]);
  });

  it('drops the key reference when the key is cleared', async () => {
    const fake = await mountEditor(stored);
    fireEvent.input(screen.getByPlaceholderText('none'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.calls.setSettings).toHaveBeenCalled());
    expect(savedProviders(fake)[0]).not.toHaveProperty('apiKeySecret');
    expect(savedProviders(fake)[0]).toMatchObject({ headers: { 'X-Org': 'acme' } });
    // The key is deleted in the same call (before: a separate deleteSecret call).
    expect(savedSecrets(fake)).toEqual({ 'provider.p.apiKey': null });
    expect(fake.calls.setSettings).toHaveBeenCalledTimes(1);
    expect(secretCalls(fake)).toEqual([]);
  });
});
