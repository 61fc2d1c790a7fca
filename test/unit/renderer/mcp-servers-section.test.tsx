// Settings → MCP servers: rows with their live state, the switch, Restart, add (command line or
// URL), remove and the import preview, on a fake API.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { McpServersSection } from '../../../renderer/src/settings/mcp-servers/mcp-servers-section.tsx';
import { splitCommandLine } from '../../../renderer/src/settings/mcp-servers/split-command-line.ts';
import { AppProvider } from '../../../renderer/src/store/app-context.tsx';
import { createAppStore } from '../../../renderer/src/store/create-app-store.ts';
import type { ApiMethodName, McpImportPreview, McpServerView } from '../../../shared/api.ts';
import { fakeApi } from './fake-api.ts';

const row = (over: Partial<McpServerView> = {}): McpServerView => ({
  name: 'ev',
  enabled: false,
  status: 'disabled',
  transport: 'stdio',
  target: 'node everything.js stdio',
  tools: 0,
  sandbox: 'sandboxed: network allowed, home read-only, writes only to /home/u/.npm',
  trusted: false,
  restarts: 0,
  ...over,
});

async function mount(overrides: Partial<Record<ApiMethodName, (req: any) => unknown>> = {}) {
  const fake = fakeApi({ listMcpServers: () => [row()], ...overrides });
  const store = createAppStore(fake.api);
  await store.init();
  render(() => (
    <AppProvider value={{ ...store, openVariable: () => {}, insertIntoComposer: () => {}, focusComposer: () => {} }}>
      <McpServersSection />
    </AppProvider>
  ));
  await waitFor(() => expect(screen.getByTestId('mcp-server')).toBeTruthy());
  return { ...fake, store };
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('Settings → MCP servers', () => {
  it('shows each state as it changes: disabled, starting, ready with N tools, failed with the reason and stderr tail', async () => {
    const fake = await mount();
    const state = () => screen.getByTestId('mcp-state').textContent;
    expect(state()).toBe('disabled');
    expect(screen.getByTestId('mcp-sandbox').textContent).toContain('writes only to /home/u/.npm');
    fake.emit({ type: 'mcp.changed', servers: [row({ enabled: true, status: 'starting' })] });
    await waitFor(() => expect(state()).toBe('starting…'));
    fake.emit({ type: 'mcp.changed', servers: [row({ enabled: true, status: 'ready', tools: 13 })] });
    await waitFor(() => expect(state()).toBe('ready with 13 tools'));
    fake.emit({ type: 'mcp.changed', servers: [row({ enabled: true, status: 'failed', detail: 'exited with code 1\nstderr: Error: Cannot find module x' })] });
    await waitFor(() => expect(state()).toBe('failed'));
    expect(screen.getByTestId('mcp-detail').textContent).toContain('Cannot find module x');
  });

  it('a start counts its seconds against its bound, and a finished start shows its timeline (#36 item 11)', async () => {
    const fake = await mount();
    const state = () => screen.getByTestId('mcp-state').textContent;
    const since = Date.now() - 12_400;
    fake.emit({ type: 'mcp.changed', servers: [row({ enabled: true, status: 'starting', startTimeline: { since, steps: [{ step: 'spawn', ms: 30 }], timeoutMs: 120_000 } })] });
    await waitFor(() => expect(state()).toBe('starting… 12 s (of 120 s)'));
    await waitFor(() => expect(state()).toBe('starting… 13 s (of 120 s)'), { timeout: 2500 });
    expect(screen.queryByTestId('mcp-start-timeline')).toBeNull();
    const steps = [{ step: 'spawn', ms: 30 }, { step: 'initialize', ms: 14_020 }, { step: 'tools/list', ms: 14_041 }] as const;
    fake.emit({ type: 'mcp.changed', servers: [row({ enabled: true, status: 'ready', tools: 3, startTimeline: { since, steps: [...steps], timeoutMs: 120_000 } })] });
    await waitFor(() => expect(state()).toBe('ready with 3 tools'));
    expect(screen.getByTestId('mcp-start-timeline').textContent).toBe('Last start: spawn 30 ms · initialize 14020 ms · tools/list 14041 ms');
  });

  it('the switch is the group switch; Restart restarts that server; Remove asks first', async () => {
    const fake = await mount({ setGroupEnabled: () => ({ groups: [], diagnostics: [] }), restartMcpServer: () => [row({ enabled: true, status: 'ready', tools: 2 })], removeMcpServer: () => [] });
    fireEvent.click(screen.getByTestId('mcp-toggle-ev'));
    await waitFor(() => expect(fake.calls.setGroupEnabled).toHaveBeenCalledWith({ group: 'ev', enabled: true }));
    fake.emit({ type: 'mcp.changed', servers: [row({ enabled: true, status: 'ready', tools: 2 })] });
    const restart = await screen.findByRole('button', { name: 'Restart ev' });
    await waitFor(() => expect((restart as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(restart);
    await waitFor(() => expect(fake.calls.restartMcpServer).toHaveBeenCalledWith({ name: 'ev' }));

    // The in-app dialog asks first: Cancel removes nothing, Remove removes.
    fireEvent.click(screen.getByRole('button', { name: 'Remove ev' }));
    fireEvent.click(await screen.findByTestId('app-dialog-cancel'));
    await waitFor(() => expect(screen.queryByTestId('app-dialog')).toBeNull());
    expect(fake.calls.removeMcpServer).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Remove ev' }));
    expect((await screen.findByTestId('app-dialog')).textContent).toContain('Remove the MCP server "ev"?');
    fireEvent.click(screen.getByTestId('app-dialog-confirm'));
    await waitFor(() => expect(fake.calls.removeMcpServer).toHaveBeenCalledWith({ name: 'ev' }));
    await waitFor(() => expect(screen.queryByTestId('mcp-server')).toBeNull());
  });

  it('adds a local server from a command line with quotes, and says what is wrong instead of sending nonsense', async () => {
    const fake = await mount({ addMcpServer: (req) => [row(), row({ name: req.name, target: [req.command, ...req.args].join(' ') })] });
    fireEvent.click(screen.getByTestId('mcp-add-open'));
    fireEvent.click(screen.getByTestId('mcp-add-submit'));
    expect(screen.getByTestId('mcp-add-problem').textContent).toMatch(/name/);
    fireEvent.input(screen.getByTestId('mcp-add-name'), { target: { value: 'files' } });
    fireEvent.input(screen.getByTestId('mcp-add-target'), { target: { value: 'npx -y "server fs" \'/my docs' } });
    fireEvent.click(screen.getByTestId('mcp-add-submit'));
    expect(screen.getByTestId('mcp-add-problem').textContent).toMatch(/unclosed quote/);
    expect(fake.calls.addMcpServer).not.toHaveBeenCalled();
    fireEvent.input(screen.getByTestId('mcp-add-target'), { target: { value: 'npx -y "server fs" \'/my docs\'' } });
    fireEvent.click(screen.getByTestId('mcp-add-submit'));
    await waitFor(() => expect(fake.calls.addMcpServer).toHaveBeenCalledWith({ name: 'files', command: 'npx', args: ['-y', 'server fs', '/my docs'] }));
    await waitFor(() => expect(screen.getAllByTestId('mcp-server')).toHaveLength(2));
    expect(screen.queryByTestId('mcp-add-form')).toBeNull();
  });

  it('shows the host’s refusal in the form (a remote server by URL)', async () => {
    const fake = await mount({
      addMcpServer: () => {
        throw new Error('a server named "ev" already exists: remove it first, or pick another name');
      },
    });
    fireEvent.click(screen.getByTestId('mcp-add-open'));
    fireEvent.click(screen.getByLabelText(/Remote/));
    fireEvent.input(screen.getByTestId('mcp-add-name'), { target: { value: 'ev' } });
    fireEvent.input(screen.getByTestId('mcp-add-target'), { target: { value: 'https://example.com/mcp' } });
    fireEvent.click(screen.getByTestId('mcp-add-submit'));
    await waitFor(() => expect(screen.getByTestId('mcp-add-problem').textContent).toContain('already exists'));
    expect(fake.calls.addMcpServer).toHaveBeenCalledWith({ name: 'ev', url: 'https://example.com/mcp' });
  });

  it('shows the roots and writable folders; the arguments\' folders switch; a refused write offers "Allow writing to FOLDER"', async () => {
    const files = row({ name: 'files', enabled: true, status: 'ready', roots: ['/home/u/Documents'], writable: ['/home/u/Documents'], argFolders: { folders: ['/home/u/Documents'], writable: true } });
    const fake = await mount({
      listMcpServers: () => [files],
      setMcpArgFoldersWritable: ({ writable }) => [{ ...files, writable: writable ? files.writable : [], argFolders: { folders: ['/home/u/Documents'], writable } }],
      allowMcpWrite: ({ folder }) => [{ ...files, writable: [...files.writable!, folder] }],
    });
    expect(screen.getByTestId('mcp-roots').textContent).toBe('Roots: /home/u/Documents');
    expect(screen.getByTestId('mcp-writable').textContent).toBe('Writes to: /home/u/Documents');
    expect(screen.queryByTestId('mcp-write-refusal')).toBeNull();
    fireEvent.click(screen.getByTestId('mcp-argfolders-files'));
    await waitFor(() => expect(fake.calls.setMcpArgFoldersWritable).toHaveBeenCalledWith({ name: 'files', writable: false }));
    await waitFor(() => expect(screen.queryByTestId('mcp-writable')).toBeNull());

    fake.emit({ type: 'mcp.changed', servers: [{ ...files, writeRefusal: { path: '/opt/mem/dist/memory.jsonl', folder: '/opt/mem/dist' } }] });
    const refusal = await screen.findByTestId('mcp-write-refusal');
    expect(refusal.textContent).toContain('The sandbox kept it from writing /opt/mem/dist/memory.jsonl.');
    fireEvent.click(within(refusal).getByTestId('mcp-allow-write'));
    await waitFor(() => expect(fake.calls.allowMcpWrite).toHaveBeenCalledWith({ name: 'files', folder: '/opt/mem/dist' }));
    await waitFor(() => expect(screen.getByTestId('mcp-writable').textContent).toBe('Writes to: /home/u/Documents, /opt/mem/dist'));
  });

  it('a server given no folders says the roots capability is not declared', async () => {
    await mount({ listMcpServers: () => [row({ roots: [], writable: [] })] });
    expect(screen.getByTestId('mcp-roots').textContent).toBe('Roots: none (the server keeps the folders of its own configuration)');
  });

  it('Import shows what would be added (secret names, skipped entries, where it looked) before adding the chosen ones', async () => {
    const preview: McpImportPreview = {
      add: [
        { name: 'gh', from: 'Cursor (/h/.cursor/mcp.json)', target: 'npx -y gh-mcp', secrets: ['mcp.gh.GITHUB_TOKEN'], references: ['mcp.gh.GITHUB_TOKEN'], foreign: [], questions: [] },
        { name: 'fs', from: 'Claude Desktop (/h/.config/Claude/claude_desktop_config.json)', target: 'npx fs', secrets: [], references: [], foreign: [], questions: [] },
      ],
      skipped: [{ name: 'ev', from: 'LM Studio (/h/.lmstudio/mcp.json)', reason: 'a server of this name is already configured' }],
      problems: [],
      searched: ['Cursor: /h/.cursor/mcp.json'],
    };
    const fake = await mount({ previewMcpImport: () => preview, importMcpServers: ({ names }) => [row(), ...names.map((name: string) => row({ name }))] });
    fireEvent.click(screen.getByTestId('mcp-import-open'));
    const box = await screen.findByTestId('mcp-import-preview');
    expect(within(box).getAllByTestId('mcp-import-candidate')).toHaveLength(2);
    expect(box.textContent).toContain('to the keychain: mcp.gh.GITHUB_TOKEN');
    expect(within(box).getByTestId('mcp-import-skipped').textContent).toContain('already configured');
    expect(fake.calls.importMcpServers).not.toHaveBeenCalled();
    fireEvent.click(within(box).getByLabelText('Import fs'));
    fireEvent.click(within(box).getByTestId('mcp-import-confirm'));
    await waitFor(() => expect(fake.calls.importMcpServers).toHaveBeenCalledWith({ names: ['gh'] }));
    await waitFor(() => expect(screen.queryByTestId('mcp-import-preview')).toBeNull());
    expect(screen.getAllByTestId('mcp-server').map((li) => li.dataset.server)).toEqual(['ev', 'gh']);
  });

  it('Import lists every secret a server receives, asks VS Code inputs, and gives a foreign secret only when ticked', async () => {
    const preview: McpImportPreview = {
      add: [
        {
          name: 'web',
          from: 'VS Code (/h/.config/Code/User/mcp.json)',
          target: 'https://example.com/mcp',
          secrets: [],
          references: ['mcp.web.api-key', 'OPENAI_KEY'],
          foreign: ['OPENAI_KEY'],
          questions: [{ id: 'api-key', description: 'Example API key', password: true, secret: 'mcp.web.api-key' }],
        },
      ],
      skipped: [],
      problems: [],
      searched: [],
    };
    const fake = await mount({ previewMcpImport: () => preview, importMcpServers: () => [row({ name: 'web' })] });
    fireEvent.click(screen.getByTestId('mcp-import-open'));
    const box = await screen.findByTestId('mcp-import-preview');
    expect(within(box).getByTestId('mcp-import-references').textContent).toContain('mcp.web.api-key, OPENAI_KEY');
    expect(within(box).getByTestId('mcp-import-allow').textContent).toContain('Give OPENAI_KEY to web');
    const key = within(box).getByLabelText('web: Example API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    fireEvent.input(key, { target: { value: 'k-123' } });
    fireEvent.click(within(box).getByTestId('mcp-import-confirm'));
    await waitFor(() => expect(fake.calls.importMcpServers).toHaveBeenCalledWith({ names: ['web'], answers: { 'mcp.web.api-key': 'k-123' } }));
    await waitFor(() => expect(screen.queryByTestId('mcp-import-preview')).toBeNull());
    fireEvent.click(screen.getByTestId('mcp-import-open'));
    const again = await screen.findByTestId('mcp-import-preview');
    fireEvent.click(within(again).getByTestId('mcp-import-allow').querySelector('input')!);
    fireEvent.click(within(again).getByTestId('mcp-import-confirm'));
    await waitFor(() => expect(fake.calls.importMcpServers).toHaveBeenLastCalledWith({ names: ['web'], allowSecrets: ['OPENAI_KEY'] }));
  });
});

describe('splitCommandLine', () => {
  it.each([
    ['npx -y pkg', ['npx', '-y', 'pkg']],
    ['  a   b ', ['a', 'b']],
    ['a "b c" \'d e\'', ['a', 'b c', 'd e']],
    ['a b\\ c ""', ['a', 'b c', '']],
    ['"a \\" b"', ['a " b']],
    ['', []],
  ])('%j', (line, words) => expect(splitCommandLine(line)).toEqual(words));
  it('an open quote is an error, not a guess', () => expect(splitCommandLine('a "b')).toBeNull());
});
