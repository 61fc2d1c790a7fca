// The context meter: the window the server states, else the model table's, else "window unknown".
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@solidjs/testing-library';
import { ContextMeter, modelWindow } from '../../../renderer/src/chat/context-meter.tsx';
import { AppProvider } from '../../../renderer/src/store/app-context.tsx';
import { createAppStore } from '../../../renderer/src/store/create-app-store.ts';
import type { ModelList } from '../../../shared/api.ts';
import { fakeApi } from './fake-api.ts';

const list: ModelList = {
  models: [
    { providerId: 'router', providerName: 'Router', model: 'vendor/big', contextWindow: 262_144 },
    { providerId: 'local', providerName: 'Local', model: 'my-finetune' },
    { providerId: 'local', providerName: 'Local', model: 'llama3.2' },
  ],
  problems: [],
};

describe('modelWindow', () => {
  it('prefers the window the provider lists, then the table, else none', () => {
    expect(modelWindow(list, { providerId: 'router', model: 'vendor/big' })).toEqual({ tokens: 262_144, source: 'server' });
    expect(modelWindow(list, { providerId: 'local', model: 'llama3.2' })).toEqual({ tokens: 128_000, source: 'table' });
    expect(modelWindow(list, { providerId: 'local', model: 'my-finetune' })).toBeUndefined();
    // Another provider's entry of the same name says nothing about this one.
    expect(modelWindow(list, { providerId: 'local', model: 'vendor/big' })).toBeUndefined();
    expect(modelWindow(undefined, {})).toBeUndefined();
  });
});

async function mountMeter(current: { providerId?: string; model?: string }, used: number) {
  const fake = fakeApi({ listAllModels: () => list });
  const store = createAppStore(fake.api);
  await store.init();
  render(() => (
    <AppProvider value={{ ...store, openVariable: () => {}, insertIntoComposer: () => {}, focusComposer: () => {} }}>
      <ContextMeter current={current} used={used} />
    </AppProvider>
  ));
  return fake;
}

describe('ContextMeter', () => {
  it('shows a fill bar of the server-stated window', async () => {
    await mountMeter({ providerId: 'router', model: 'vendor/big' }, 65_536);
    await waitFor(() => expect(screen.getByTestId('context-meter')).toHaveTextContent('66k / 262k tokens'));
    const bar = screen.getByRole('meter', { name: 'Context used' }) as HTMLMeterElement;
    expect(bar.max).toBe(262_144);
    expect(bar.value).toBe(65_536);
    expect(screen.getByTestId('context-meter')).toHaveAttribute('data-window', 'server');
  });

  it('says "window unknown" without a bar when neither the server nor the table knows the model', async () => {
    const fake = await mountMeter({ providerId: 'local', model: 'my-finetune' }, 1200);
    await waitFor(() => expect(fake.calls.listAllModels).toHaveBeenCalled());
    expect(screen.getByTestId('context-meter')).toHaveTextContent('1.2k tokens · window unknown');
    expect(screen.queryByRole('meter')).toBeNull();
  });

  it('shows the window before the first answer', async () => {
    await mountMeter({ providerId: 'local', model: 'llama3.2' }, 0);
    expect(await screen.findByRole('meter')).toBeInTheDocument();
    expect(screen.getByTestId('context-meter')).toHaveTextContent('128k window');
  });
});
