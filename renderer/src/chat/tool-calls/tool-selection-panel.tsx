import { For, Show, createMemo, createSignal } from 'solid-js';
import type { ChatToolSelection } from '../../../../shared/tool-selection.ts';
import type { ToolGroupInfo } from '../../../../shared/tools.ts';
import { effectiveSelection, matchesSearch, togglePin, toggleTools } from './tool-selection.ts';
import { useLayer } from '../../ui/layers.ts';
import { SkillsMenuList } from '../../skills/skills-menu-list.tsx';

/**
 * The chat's tools: groups and single tools, search, select all/none, and pins (pinned tools are
 * always sent in full, even when the definitions exceed the budget and FindTools stands in for
 * the rest). Every change is saved with the session at once; "Use the global switches" forgets
 * the chat's own choice.
 */
export function ToolSelectionPanel(props: {
  groups: ToolGroupInfo[];
  selection: ChatToolSelection | null;
  onChange: (selection: ChatToolSelection | null) => void;
  /** Skills (ids) switched off for this chat, and where a change goes (saved with the chat). */
  skillsOff?: readonly string[];
  onSkillsOffChange?: (off: string[]) => void;
  onClose: () => void;
  /** "Settings → Tool groups" and "New tool" in the hint shown while none of the user's own tools is on. */
  onOpenSettings?: (section?: string) => void;
  onNewTool?: () => void;
}) {
  useLayer(() => props.onClose());
  const [query, setQuery] = createSignal('');
  const current = () => effectiveSelection(props.groups, props.selection);
  const chosen = createMemo(() => new Set(current().tools));
  const pinned = createMemo(() => new Set(current().pinned));
  const visibleGroups = createMemo(() =>
    props.groups
      .map((g) => ({ group: g, tools: g.tools.filter((t) => matchesSearch(t, query())) }))
      .filter((g) => g.tools.length > 0),
  );
  const visibleNames = () => visibleGroups().flatMap((g) => g.tools.map((t) => t.name));
  const set = (names: string[], on: boolean) => props.onChange(toggleTools(current(), names, on));
  const total = () => props.groups.reduce((n, g) => n + g.tools.length, 0);
  /** None of the user's own tools (only built-in ones, or nothing) is on for this chat: say how to get some. */
  const noOwnTools = () => !props.groups.some((g) => !g.builtin && g.tools.some((t) => chosen().has(t.name)));

  return (
    <div
      class="tool-selection card stack"
      role="dialog"
      aria-label="Tools for this chat"
      data-testid="tool-selection"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          props.onClose();
        }
      }}
    >
      <div class="row">
        <strong class="grow">Tools for this chat</strong>
        <span class="muted small">
          {chosen().size} of {total()} selected{props.selection ? '' : ' (the global switches)'}
        </span>
        <button type="button" class="link small" onClick={() => props.onClose()}>
          Close
        </button>
      </div>
      <Show when={noOwnTools()}>
        <p class="small tool-selection-empty" data-testid="tool-selection-empty">
          None of your own tools is on for this chat. Tick a group below, switch groups on for every chat in{' '}
          <button type="button" class="link small" onClick={() => { props.onClose(); props.onOpenSettings?.('groups'); }}>
            Settings → Tool groups
          </button>{' '}
          (a new group starts off), or write one:{' '}
          <button type="button" class="link small" onClick={() => { props.onClose(); props.onNewTool?.(); }}>
            New tool
          </button>{' '}
          (it goes in your tools folder; MCP servers are added in Settings → MCP servers).
        </p>
      </Show>
      <input type="search" placeholder="Search tools" aria-label="Search tools" value={query()} onInput={(e) => setQuery(e.currentTarget.value)} ref={(el) => queueMicrotask(() => el.focus())} />
      <div class="row wrap">
        <button type="button" class="small" onClick={() => set(visibleNames(), true)}>
          Select all
        </button>
        <button type="button" class="small" onClick={() => set(visibleNames(), false)}>
          Select none
        </button>
        <span class="grow" />
        <Show when={props.selection}>
          <button type="button" class="link small" onClick={() => props.onChange(null)} title="Settings → Tool groups decide again">
            Use the global switches
          </button>
        </Show>
      </div>
      <div class="tool-selection-list">
        <For each={visibleGroups()}>
          {(entry) => {
            const names = () => entry.tools.map((t) => t.name);
            const on = () => names().filter((n) => chosen().has(n)).length;
            return (
              <fieldset class="tool-selection-group">
                <legend>
                  <label class="row">
                    <input
                      type="checkbox"
                      aria-label={`Group ${entry.group.name}`}
                      checked={on() === names().length}
                      ref={(el) => queueMicrotask(() => (el.indeterminate = on() > 0 && on() < names().length))}
                      onChange={(e) => set(names(), e.currentTarget.checked)}
                    />
                    <strong>{entry.group.name}</strong>
                    <span class="muted small">
                      {on()}/{names().length}
                    </span>
                  </label>
                </legend>
                <For each={entry.tools}>
                  {(tool) => (
                    <div class="row tool-selection-tool">
                      <label class="row grow">
                        <input type="checkbox" aria-label={`Tool ${tool.name}`} checked={chosen().has(tool.name)} onChange={(e) => set([tool.name], e.currentTarget.checked)} />
                        <code>{tool.name}</code>
                        <span class="muted small tool-selection-desc" title={tool.description} data-testid="tool-selection-desc">
                          {tool.description.split('\n')[0]}
                        </span>
                      </label>
                      <button
                        type="button"
                        class="link small"
                        aria-pressed={pinned().has(tool.name)}
                        aria-label={`Pin ${tool.name}`}
                        title="Pinned tools are always sent in full, even when FindTools stands in for the others"
                        onClick={() => props.onChange(togglePin(current(), tool.name, !pinned().has(tool.name)))}
                      >
                        {pinned().has(tool.name) ? 'Pinned' : 'Pin'}
                      </button>
                    </div>
                  )}
                </For>
              </fieldset>
            );
          }}
        </For>
        <SkillsMenuList query={query()} off={props.skillsOff ?? []} onOffChange={(off) => props.onSkillsOffChange?.(off)} onOpenSettings={(section) => { props.onClose(); props.onOpenSettings?.(section); }} />
      </div>
    </div>
  );
}
