// The composer's MCP parts without a server: `/` ranks prompts like tools, the resource picker
// searches and reports a failed read, and a resource joins the message under the files' bounds.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import type { McpPromptInfo, McpResourceInfo } from '../../../shared/mcp.ts';
import { promptUsage, suggestPrompts } from '../../../renderer/src/chat/composer/slash-suggestions.ts';
import { ResourcePicker, filterResources } from '../../../renderer/src/chat/composer/resource-picker.tsx';
import { ATTACH_LIMITS, admitUploads } from '../../../renderer/src/chat/composer/read-attachment.ts';

afterEach(cleanup);

const prompt = (server: string, name: string, extra: Partial<McpPromptInfo> = {}): McpPromptInfo => ({ server, name, command: `${server}:${name}`, arguments: [], ...extra });
const resource = (name: string, extra: Partial<McpResourceInfo> = {}): McpResourceInfo => ({ server: 'ev', uri: `demo://${name}`, name, ...extra });

describe('prompts in the / menu', () => {
  it('ranks by command, then words in the title or description', () => {
    const prompts = [prompt('ev', 'simple-prompt'), prompt('ev', 'args-prompt', { description: 'weather for a city' }), prompt('gh', 'review', { title: 'Review a pull request' })];
    expect(suggestPrompts('ev:a', prompts).map((p) => p.command)).toEqual(['ev:args-prompt']);
    expect(suggestPrompts('rev', prompts).map((p) => p.command)).toEqual(['gh:review']);
    expect(suggestPrompts('city weather', prompts).map((p) => p.command)).toEqual(['ev:args-prompt']);
    expect(suggestPrompts('', prompts)).toHaveLength(3);
    expect(promptUsage(prompt('ev', 'p', { arguments: [{ name: 'city', required: true }, { name: 'state', required: false }] }))).toBe('city=… state=[…]');
  });
});

describe('Attach resource', () => {
  it('filters by every typed word across name, URI and description', () => {
    const items = [resource('architecture.md', { description: 'how it is built' }), resource('features.md'), resource('notes', { uri: 'file:///srv/arch/notes.txt' })];
    expect(filterResources(items, 'arch').map((r) => r.name)).toEqual(['architecture.md', 'notes']);
    expect(filterResources(items, 'built how').map((r) => r.name)).toEqual(['architecture.md']);
  });

  it('lists, searches, and shows why a read failed; Esc closes', async () => {
    let closed = false;
    render(() => (
      <ResourcePicker
        source={{
          list: async () => ({ items: [resource('architecture.md'), resource('features.md')], problems: ['MCP server "gh" could not list its resources: boom'] }),
          read: async () => {
            throw new Error('demo://architecture.md is 3.0 MB; resources up to 2 MB can be attached');
          },
        }}
        onPick={() => {}}
        onClose={() => (closed = true)}
      />
    ));
    await screen.findByRole('button', { name: /architecture\.md/ });
    expect(screen.getByText(/could not list its resources: boom/)).toBeTruthy();
    fireEvent.input(screen.getByRole('searchbox', { name: 'Search resources' }), { target: { value: 'feat' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: /architecture\.md/ })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /features\.md/ }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/up to 2 MB can be attached/);
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search resources' }), { key: 'Escape' });
    expect(closed).toBe(true);
  });

  it('a read resource joins the message under the same bounds as files', () => {
    const text = { name: 'a.md', mediaType: 'text/markdown', data: Buffer.from('# hi').toString('base64') };
    expect(admitUploads([text], [])).toEqual({ added: [{ kind: 'text', size: 4, upload: text }], problems: [] });
    const full = Array.from({ length: ATTACH_LIMITS.maxFiles }, () => ({ kind: 'text' as const, size: 1, upload: text }));
    expect(admitUploads([text], full).problems).toEqual([`a.md: at most ${ATTACH_LIMITS.maxFiles} files per message.`]);
    const bin = { name: 'x.bin', mediaType: 'application/octet-stream', data: 'AAAA' };
    expect(admitUploads([bin], []).problems).toEqual(['x.bin: attach images, text files or PDFs.']);
  });
});
