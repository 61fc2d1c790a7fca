// Tool sources combined (the registry plus, e.g., MCP servers) and an executor kept in step with
// them and the enable switches: what createRuntime wires for every session, the Tools panel and
// the CLI. A second source is a fake here, shaped like the MCP manager.
import { describe, expect, it } from 'vitest';
import { Emitter } from '../../../electron/runtime/base/emitter.ts';
import { ToolSession } from '../../../electron/runtime/tools/tool-session.ts';
import { defaultSettings, type Settings } from '../../../shared/settings.ts';
import { combineGroupSources, type ToolGroupSource, type ToolsChange } from '../../../electron/runtime/tools/tools-change.ts';
import type { ToolGroup } from '../../../electron/runtime/tools/types.ts';
import type { Diagnostic } from '../../../shared/tools.ts';
import { makeGroup, makeTool } from './make-tool.ts';

function fakeSource(groups: ToolGroup[], diagnostics: Diagnostic[] = []) {
  const changed = new Emitter<ToolsChange>();
  let closed = 0;
  let reloads = 0;
  const source: ToolGroupSource = {
    groups: () => groups,
    diagnostics: () => diagnostics,
    onChanged: changed.event,
    reload: async () => void reloads++,
    close: () => void closed++,
  };
  return {
    source,
    set(next: ToolGroup[], change: Omit<ToolsChange, 'diagnostics'>) {
      groups = next;
      changed.fire({ ...change, diagnostics });
    },
    counts: () => ({ closed, reloads, listeners: changed.size }),
  };
}

const names = (executor: Pick<ToolSession, 'listGroups'>) => executor.listGroups().filter((g) => !g.builtin).map((g) => g.name);

describe('combined tool sources', () => {
  it('lists every source in order, passes each change on, reloads and closes them all', async () => {
    const files = fakeSource([makeGroup('files', [makeTool('read_notes')])], [{ severity: 'warning', file: '/t/x.py', message: 'odd' }]);
    const mcp = fakeSource([makeGroup('github', [makeTool('github__issues')])]);
    const combined = combineGroupSources([files.source, mcp.source]);
    expect(combined.groups().map((g) => g.name)).toEqual(['files', 'github']);
    expect(combined.diagnostics()).toEqual([expect.objectContaining({ message: 'odd' })]);
    const seen: ToolsChange[] = [];
    combined.onChanged((c) => seen.push(c));
    mcp.set([], { added: [], removed: ['github'], updated: [] });
    // The change as it affects the whole, with every source's diagnostics.
    expect(seen).toEqual([{ added: [], removed: ['github'], updated: [], diagnostics: [expect.objectContaining({ message: 'odd' })] }]);
    await combined.reload();
    expect([files.counts().reloads, mcp.counts().reloads]).toEqual([1, 1]);
    await combined.close();
    expect([files.counts(), mcp.counts()].map((c) => [c.closed, c.listeners])).toEqual([
      [1, 0],
      [1, 0],
    ]);
  });

  it('keeps an executor in step: new groups register, removed ones go, switches follow the settings', () => {
    const files = fakeSource([makeGroup('files', [makeTool('read_notes')])]);
    const mcp = fakeSource([]);
    const combined = combineGroupSources([files.source, mcp.source]);
    let state = { groupDefaults: { files: true, github: true } as Record<string, boolean>, toolDefaults: {} as Record<string, boolean> };
    const settingsChanged = new Emitter<typeof state>();
    const asSettings = (s: typeof state): Settings => ({ ...defaultSettings(), ...s });
    const session = new ToolSession(
      { tools: combined, settings: () => asSettings(state), onSettingsChanged: (listener) => settingsChanged.event((s) => listener(asSettings(s))) },
      { sessionId: 't' },
    );
    const executor = session;
    expect(names(executor)).toEqual(['files']);
    expect(executor.listGroups().find((g) => g.name === 'files')?.enabled).toBe(true);

    // An MCP server connects: its group appears, enabled as the settings say.
    mcp.set([makeGroup('github', [makeTool('github__issues')])], { added: ['github'], removed: [], updated: [] });
    expect(names(executor)).toEqual(['files', 'github']);
    expect(executor.tool('github__issues')).toBeDefined();
    expect(executor.listGroups().find((g) => g.name === 'github')?.enabled).toBe(true);

    // The user switches a tool off.
    state = { ...state, toolDefaults: { github__issues: false } };
    settingsChanged.fire(state);
    expect(executor.listGroups().find((g) => g.name === 'github')?.tools[0]?.enabled).toBe(false);

    // The server goes away; after stop, changes no longer reach the executor.
    mcp.set([], { added: [], removed: ['github'], updated: [] });
    expect(names(executor)).toEqual(['files']);
    session.close();
    mcp.set([makeGroup('github', [makeTool('github__issues')])], { added: ['github'], removed: [], updated: [] });
    expect(names(executor)).toEqual(['files']);
  });

  it('two sources declaring one group name: the first wins, the second is reported, and uncovered when the first goes', () => {
    const a = fakeSource([makeGroup('shared', [makeTool('from_a')])]);
    const b = fakeSource([makeGroup('shared', [makeTool('from_b')])]);
    const combined = combineGroupSources([a.source, b.source]);
    const session = new ToolSession({ tools: combined, settings: defaultSettings }, { sessionId: 't' });
    const executor = session;
    expect(executor.tool('from_a')).toBeDefined();
    expect(executor.tool('from_b')).toBeUndefined();
    expect(combined.diagnostics()).toEqual([expect.objectContaining({ code: 'group-name-taken', message: expect.stringMatching(/"shared" is already provided/) })]);

    // The later source dropping its copy must not remove the earlier one's group.
    b.set([], { added: [], removed: ['shared'], updated: [] });
    expect(executor.tool('from_a')).toBeDefined();
    expect(combined.diagnostics()).toEqual([]);
    // The earlier source dropping it uncovers the later one's.
    b.set([makeGroup('shared', [makeTool('from_b')])], { added: ['shared'], removed: [], updated: [] });
    a.set([], { added: [], removed: ['shared'], updated: [] });
    expect(executor.tool('from_a')).toBeUndefined();
    expect(executor.tool('from_b')).toBeDefined();
    session.close();
  });
});
