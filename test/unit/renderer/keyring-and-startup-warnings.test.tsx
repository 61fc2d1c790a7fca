// What the host reports about itself reaches the user: where an API key goes (the OS keychain, or
// memory until Tooldesk stops when there is none) and the warnings found while starting.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { App } from '../../../renderer/src/app.tsx';
import { ProviderEditor } from '../../../renderer/src/settings/provider-editor.tsx';
import { AppProvider } from '../../../renderer/src/store/app-context.tsx';
import { createAppStore } from '../../../renderer/src/store/create-app-store.ts';
import type { AppInfo, ProviderInfo } from '../../../shared/api.ts';
import { fakeApi } from './fake-api.ts';

const provider: ProviderInfo = { id: 'p', name: 'P', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm', active: true, hasApiKey: false };

const appInfo = (extra: Partial<AppInfo>): AppInfo => ({
  version: '0',
  browserMode: false,
  platform: 'linux',
  home: '/tmp/x',
  sandbox: { mode: 'auto', kind: 'bwrap', available: true, detail: '', perTool: {}, limits: { enforced: true } },
  secrets: { backend: 'keyring' },
  ...extra,
});

function mountEditor(secrets: AppInfo['secrets']) {
  const fake = fakeApi({ appInfo: () => appInfo({ secrets }) });
  const store = createAppStore(fake.api);
  render(() => (
    <AppProvider value={{ ...store, openVariable: () => {}, insertIntoComposer: () => {}, focusComposer: () => {} }}>
      <ProviderEditor provider={provider} onSaved={() => {}} onDeleted={() => {}} />
    </AppProvider>
  ));
  return fake;
}

describe('provider editor: where the key goes', () => {
  it('says the key is kept for this run only when there is no keyring', async () => {
    mountEditor({ backend: 'session', detail: 'No system keyring is available (DBus error).' });
    const note = await screen.findByTestId('no-keyring');
    expect(note).toHaveTextContent('kept only until Tooldesk stops');
    expect(note).toHaveTextContent('DBus error');
    // The technical reason is folded away so the note does not say the same thing twice.
    expect(note.querySelector('details summary')).toHaveTextContent('Why, and how to fix it');
    expect(screen.getByText(/no keychain here/)).toBeInTheDocument();
  });

  it('shows no note with a keychain', async () => {
    const fake = mountEditor({ backend: 'keyring' });
    await waitFor(() => expect(fake.calls.appInfo).toHaveBeenCalled());
    await screen.findByText(/kept in the OS keychain/);
    expect(screen.queryByTestId('no-keyring')).toBeNull();
  });
});

describe('startup warnings', () => {
  it('shows what the host repaired above the chat until dismissed', async () => {
    const warning = 'Settings file /tmp/x/settings.json could not be used: it is not valid JSON. It was saved as /tmp/x/settings.json.corrupt-1 and replaced by the defaults.';
    const fake = fakeApi({ appInfo: () => appInfo({ warnings: [warning] }) });
    const store = createAppStore(fake.api);
    render(() => <App store={store} />);
    const banner = await screen.findByTestId('startup-warnings');
    expect(banner).toHaveTextContent('settings.json.corrupt-1 and replaced by the defaults');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss warnings' }));
    await waitFor(() => expect(screen.queryByTestId('startup-warnings')).toBeNull());
  });
});
