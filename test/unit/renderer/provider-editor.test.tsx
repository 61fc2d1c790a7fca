// Saving a provider from Settings keeps the fields the form does not edit.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { ProviderEditor } from '../../../renderer/src/settings/provider-editor.tsx';
import { AppProvider } from '../../../renderer/src/store/app-context.tsx';
import { createAppStore } from '../../../renderer/src/store/create-app-store.ts';
import type { ProviderInfo } from '../../../shared/api.ts';
import { defaultSettings, type ProviderConfig, type Settings } from '../../../shared/settings.ts';
import { fakeApi } from './fake-api.ts';
import { PROVIDER_PRESETS, presetForBaseURL } from '../../../shared/provider-presets.ts';

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

async function mountEditor(provider: ProviderConfig, isNew = false) {
  const settings: Settings = { ...defaultSettings(), providers: isNew ? [] : [provider], activeProviderId: isNew ? null : provider.id };
  const fake = fakeApi({ getSettings: () => settings, setSettings: ({ patch }: { patch: Partial<Settings> }) => ({ ...settings, ...patch }) });
  const store = createAppStore(fake.api);
  await store.init();
  const info: ProviderInfo = { ...provider, active: true, hasApiKey: Boolean(provider.apiKeySecret) };
  render(() => (
    <AppProvider value={{ ...store, openVariable: () => {}, insertIntoComposer: () => {}, focusComposer: () => {} }}>
      <ProviderEditor provider={info} isNew={isNew} onSaved={() => {}} onDeleted={() => {}} />
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

describe('ProviderEditor presets (a new provider)', () => {
  const blank: ProviderConfig = { id: 'new', name: 'New provider', kind: 'openai-compatible', baseURL: '', model: '' };
  const baseURL = () => screen.getByLabelText('Base URL') as HTMLInputElement;
  const name = () => screen.getByLabelText('Provider name') as HTMLInputElement;

  it('starts with an empty Base URL and a placeholder; a preset fills the address, the name and its hint', async () => {
    await mountEditor(blank, true);
    expect(baseURL().value).toBe('');
    expect(baseURL().placeholder).toMatch(/\/v1/);
    fireEvent.click(screen.getByRole('button', { name: 'Ollama' }));
    expect(baseURL().value).toBe('http://127.0.0.1:11434/v1');
    expect(name().value).toBe('Ollama');
    expect(screen.getByTestId('provider-hint')).toHaveTextContent('Runs locally on port 11434');
    expect(screen.getByRole('button', { name: 'Ollama' })).toHaveAttribute('aria-pressed', 'true');
    // Another preset replaces a preset's name, never one the user typed.
    fireEvent.click(screen.getByRole('button', { name: 'OpenRouter' }));
    expect(name().value).toBe('OpenRouter');
    expect(screen.getByTestId('provider-hint')).toHaveTextContent('Needs an API key');
    fireEvent.input(name(), { target: { value: 'Work router' } });
    fireEvent.click(screen.getByRole('button', { name: 'OpenAI' }));
    expect(name().value).toBe('Work router');
    expect(baseURL().value).toBe('https://api.openai.com/v1');
  });

  it('Save with no Base URL says what to do and stores nothing', async () => {
    const fake = await mountEditor(blank, true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Base URL is empty');
    expect(fake.calls.setSettings).not.toHaveBeenCalled();
  });
});

describe('provider presets', () => {
  it('cover the servers users ask for, each with an http(s) address and a hint', () => {
    expect(PROVIDER_PRESETS.map((p) => p.id)).toEqual(['openai', 'openrouter', 'anthropic', 'gemini', 'deepseek', 'ollama', 'lmstudio', 'llamacpp', 'vllm']);
    for (const p of PROVIDER_PRESETS) {
      expect(new URL(p.baseURL).protocol).toMatch(/^https?:$/);
      expect(p.hint.length).toBeGreaterThan(10);
    }
  });

  it('are recognised from a stored address, trailing slash or not', () => {
    expect(presetForBaseURL('http://127.0.0.1:1234/v1/')?.name).toBe('LM Studio');
    expect(presetForBaseURL('https://example.test/v1')).toBeUndefined();
    expect(presetForBaseURL('')).toBeUndefined();
  });
});
