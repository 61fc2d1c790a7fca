// Settings → MCP servers, the parts issue #22 added, on a fake API: the "secret missing" row (its
// command, its field, the no-keyring note), a file that is not a bundle refused before it is sent,
// and the bundle view's form by field type.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { McpServersSection } from '../../../renderer/src/settings/mcp-servers/mcp-servers-section.tsx';
import { AppProvider } from '../../../renderer/src/store/app-context.tsx';
import { createAppStore } from '../../../renderer/src/store/create-app-store.ts';
import type { ApiMethodName, McpServerView } from '../../../shared/api.ts';
import type { McpBundleView } from '../../../shared/mcp-install.ts';
import { fakeApi } from './fake-api.ts';

const marked: McpServerView = { name: 'gh', enabled: false, status: 'disabled', transport: 'stdio', target: 'node gh.js', tools: 0, sandbox: '', trusted: false, restarts: 0, secretMissing: ['mcp.gh.TOKEN'] };
const bundle: McpBundleView = {
  id: 'b1',
  fileName: 'acme.mcpb',
  name: 'acme',
  version: '1.0.0',
  tools: ['echo'],
  prompts: [],
  privacyPolicies: [],
  signature: { status: 'unsigned' },
  userConfig: [
    { key: 'api_key', type: 'string', title: 'API key', required: true, sensitive: true },
    { key: 'verbose', type: 'boolean', title: 'Verbose', required: false, sensitive: false, default: true },
    { key: 'retries', type: 'number', title: 'Retries', required: false, sensitive: false, default: 3 },
  ],
};

async function mount(overrides: Partial<Record<ApiMethodName, (req: any) => unknown>> = {}) {
  const fake = fakeApi({ listMcpServers: () => [marked], ...overrides });
  const store = createAppStore(fake.api);
  await store.init();
  render(() => (
    <AppProvider value={{ ...store, openVariable: () => {}, insertIntoComposer: () => {}, focusComposer: () => {} }}>
      <McpServersSection />
    </AppProvider>
  ));
  await waitFor(() => expect(screen.getByTestId('mcp-server')).toBeTruthy());
  return fake;
}

const chooseFile = (file: File) => {
  const input = screen.getByTestId('mcp-bundle-file') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  fireEvent.change(input);
};

afterEach(() => cleanup());

describe('Settings → MCP servers: install views', () => {
  it('a "secret missing" row names the command and stores the value typed in its field', async () => {
    const fake = await mount({ setSecret: () => null });
    expect(screen.getByTestId('mcp-state').textContent).toBe('secret missing');
    expect(screen.getByTestId('mcp-secret-missing').textContent).toContain('tooldesk secrets set mcp.gh.TOKEN');
    fireEvent.input(screen.getByLabelText('Value of mcp.gh.TOKEN'), { target: { value: 'ghp_1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save to keychain' }));
    await waitFor(() => expect(fake.calls.setSecret).toHaveBeenCalledWith({ name: 'mcp.gh.TOKEN', value: 'ghp_1' }));
    expect(screen.queryByTestId('mcp-secret-missing-no-keyring')).toBeNull();
  });

  it('without a keyring the row says the value lasts until the app stops', async () => {
    await mount({ appInfo: () => ({ version: '0', browserMode: true, platform: 'linux', home: '/tmp/x', sandbox: { mode: 'auto', kind: 'bwrap', available: true, detail: '', perTool: {}, limits: { enforced: true } }, secrets: { backend: 'session' } }) });
    await waitFor(() => expect(screen.getByTestId('mcp-secret-missing-no-keyring').textContent).toContain('kept only until Tooldesk stops'));
  });

  it('a file that is not a .mcpb is refused before anything is sent', async () => {
    const fake = await mount();
    chooseFile(new File(['x'], 'notes.txt'));
    await waitFor(() => expect(screen.getByTestId('mcp-bundle-problem').textContent).toBe('notes.txt is not an MCP bundle: choose a .mcpb file.'));
    expect(fake.calls.openMcpBundle).not.toHaveBeenCalled();
  });

  it('the bundle form: a password for a sensitive field, a checkbox for a boolean, defaults sent as typed', async () => {
    const fake = await mount({ openMcpBundle: () => bundle, installMcpBundle: () => [marked] });
    chooseFile(new File(['PK'], 'acme.mcpb'));
    await waitFor(() => expect(screen.getByTestId('mcp-bundle')).toBeTruthy());
    expect(fake.calls.openMcpBundle).toHaveBeenCalledWith({ fileName: 'acme.mcpb', data: btoa('PK') });
    const key = screen.getByLabelText(/API key/) as HTMLInputElement;
    expect(key.type).toBe('password');
    const verbose = screen.getByRole('checkbox', { name: /Verbose/ }) as HTMLInputElement;
    expect(verbose.checked).toBe(true);
    fireEvent.click(screen.getByTestId('mcp-bundle-install'));
    await waitFor(() => expect(screen.getByTestId('mcp-bundle').textContent).toContain('Fill in API key (required).'));
    expect(fake.calls.installMcpBundle).not.toHaveBeenCalled();
    fireEvent.input(key, { target: { value: 'k-123' } });
    fireEvent.click(verbose);
    fireEvent.click(screen.getByTestId('mcp-bundle-install'));
    await waitFor(() => expect(fake.calls.installMcpBundle).toHaveBeenCalledWith({ id: 'b1', values: { api_key: 'k-123', verbose: 'false', retries: '3' } }));
    await waitFor(() => expect(screen.queryByTestId('mcp-bundle')).toBeNull());
  });
});
