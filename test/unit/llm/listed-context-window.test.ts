// A model's context window from the server's own model list, and the picker's list carrying it.
import { afterEach, describe, expect, it } from 'vitest';
import { listedContextWindow } from '../../../electron/runtime/llm/listed-context-window.ts';
import { listAllModels } from '../../../electron/runtime/llm/list-all-models.ts';
import { createOpenAICompatibleProvider } from '../../../electron/runtime/llm/openai-compatible-provider.ts';
import { defaultSettings, type ProviderConfig } from '../../../shared/settings.ts';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';

describe('listedContextWindow', () => {
  it('reads the fields OpenRouter, vLLM, LM Studio, Groq and llama.cpp send', () => {
    expect(listedContextWindow({ id: 'a', context_length: 131072 })).toBe(131072);
    expect(listedContextWindow({ id: 'a', top_provider: { context_length: 65536 } })).toBe(65536);
    expect(listedContextWindow({ id: 'a', max_model_len: 32768 })).toBe(32768);
    expect(listedContextWindow({ id: 'a', max_context_length: 8192 })).toBe(8192);
    expect(listedContextWindow({ id: 'a', context_window: 4096 })).toBe(4096);
    expect(listedContextWindow({ id: 'a', meta: { n_ctx_train: 2048 } })).toBe(2048);
  });

  it('is unknown for a plain OpenAI entry or a value that is not a positive whole number', () => {
    expect(listedContextWindow({ id: 'gpt-4o', object: 'model', owned_by: 'openai' })).toBeUndefined();
    expect(listedContextWindow({ id: 'a', context_length: '8192' })).toBeUndefined();
    expect(listedContextWindow({ id: 'a', context_length: -1, max_model_len: 0.5 })).toBeUndefined();
    expect(listedContextWindow(null)).toBeUndefined();
  });
});

describe('the model list carries each stated window', () => {
  let fake: FakeOpenAIServer | undefined;
  afterEach(async () => fake?.close());

  it('from /v1/models through the provider to listAllModels; the configured model without one has none', async () => {
    fake = await startFakeOpenAI({ models: ['big', 'plain'], modelFields: { big: { context_length: 200_000 } } });
    const config: ProviderConfig = { id: 'p', name: 'P', kind: 'openai-compatible', baseURL: fake.url, model: 'plain' };
    const provider = createOpenAICompatibleProvider({ config, apiKey: null });
    const listed = await provider.listModels();
    expect(listed).toEqual({ ok: true, models: [{ id: 'big', ownedBy: 'fake', contextWindow: 200_000 }, { id: 'plain', ownedBy: 'fake' }] });
    const all = await listAllModels({ ...defaultSettings(), providers: [config] }, async () => (listed.ok ? listed.models : []));
    expect(all.models).toEqual([
      { providerId: 'p', providerName: 'P', model: 'plain' },
      { providerId: 'p', providerName: 'P', model: 'big', contextWindow: 200_000 },
    ]);
  });
});
