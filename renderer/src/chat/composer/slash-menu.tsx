import { For, Show, createMemo, createResource, createSignal } from 'solid-js';
import type { McpPromptInfo } from '../../../../shared/mcp.ts';
import { parsePromptCommand } from '../../../../shared/prompt-command.ts';
import type { ToolInfo } from '../../../../shared/tools.ts';
import { promptUsage, slashQuery, suggestPrompts, suggestToolSets, suggestTools } from './slash-suggestions.ts';

export type Suggestion = { kind: 'tool'; tool: ToolInfo; command: string } | { kind: 'prompt'; prompt: McpPromptInfo; command: string } | { kind: 'toolset'; command: string };

/** What the menu draws from; read reactively (pass the component's props). */
export interface SlashSources {
  /** The tools `/` suggests (the chat's selection). */
  tools?: ToolInfo[] | undefined;
  /** The tool sets `/toolset` offers (names). */
  toolSets?: string[] | undefined;
  /** MCP prompts `/` suggests as `/server:prompt` (read when the menu opens); absent: none. */
  loadPrompts?: (() => Promise<McpPromptInfo[]>) | undefined;
}

/**
 * The `/` menu of the message box: tool sets, tools and MCP prompts matching what is typed, and
 * the arguments hint of a prompt named in full.
 * Contract: prompts are read again each time a `/` starts a command (servers come and go) and a
 * failed read suggests none. `close` hides the menu until the text stops being a command; `typed`
 * must be told of every input so the pick goes back to the first row.
 */
export function createSlashMenu(text: () => string, sources: SlashSources) {
  const [picked, setPicked] = createSignal(0);
  const [closed, setClosed] = createSignal(false);
  const slashing = createMemo(() => text().startsWith('/'));
  const [prompts] = createResource(
    () => (slashing() && sources.loadPrompts ? sources.loadPrompts : false),
    (load) => load().catch(() => [] as McpPromptInfo[]),
  );
  const suggestions = createMemo((): Suggestion[] => {
    const query = slashQuery(text());
    if (query === null || closed()) return [];
    const tools = suggestTools(query, sources.tools ?? []).map((tool): Suggestion => ({ kind: 'tool', tool, command: `/${tool.modelName}` }));
    const promptItems = suggestPrompts(query, prompts.latest ?? []).map((prompt): Suggestion => ({ kind: 'prompt', prompt, command: `/${prompt.command}` }));
    const sets = suggestToolSets(query, sources.toolSets ?? []).map((command): Suggestion => ({ kind: 'toolset', command }));
    // A colon means a prompt is meant; otherwise tool sets (only once "/to…" is typed), tools, prompts.
    return query.includes(':') ? promptItems : [...sets, ...tools, ...promptItems].slice(0, 10);
  });
  /** The prompt the text names (`/server:prompt …`), for the arguments hint under the box. */
  const promptHint = createMemo(() => {
    const parsed = parsePromptCommand(text());
    if (!parsed) return null;
    const name = /^\/([^\s]+)/.exec(text().trim())?.[1];
    const prompt = (prompts.latest ?? []).find((p) => p.command === name);
    if (!prompt) return null;
    const given = 'args' in parsed ? parsed.args : {};
    const missing = prompt.arguments.filter((a) => a.required && !given[a.name]).map((a) => a.name);
    return { prompt, missing, error: 'error' in parsed ? parsed.error : undefined };
  });
  return {
    suggestions,
    promptHint,
    picked,
    /** The row the pick is on: the picked one, or the last when the list got shorter. */
    pickedItem: () => {
      const list = suggestions();
      return list[Math.min(picked(), list.length - 1)];
    },
    /** Moves the pick one row down (+1) or up (-1), wrapping around. */
    move: (step: 1 | -1) => setPicked((i) => (i + (step === 1 ? 1 : suggestions().length - 1)) % suggestions().length),
    /** The text is a suggestion's command exactly (Enter then sends it rather than completing). */
    exact: () => suggestions().some((t) => t.command === text().trim()),
    close: () => setClosed(true),
    typed: (value: string) => {
      setPicked(0);
      if (slashQuery(value) === null) setClosed(false);
    },
  };
}

export type SlashMenuState = ReturnType<typeof createSlashMenu>;

/** The menu's rows; a mouse-down completes a row without taking the focus from the box. */
export function SlashMenu(props: { menu: SlashMenuState; onPick: (item: Suggestion) => void }) {
  return (
    <Show when={props.menu.suggestions().length > 0}>
      <ul class="slash-menu" role="listbox" aria-label="Tools and prompts" data-testid="slash-menu">
        <For each={props.menu.suggestions()}>
          {(item, i) => (
            <li
              role="option"
              aria-selected={i() === props.menu.picked()}
              class={i() === props.menu.picked() ? 'picked' : ''}
              data-kind={item.kind}
              onMouseDown={(e) => {
                e.preventDefault();
                props.onPick(item);
              }}
            >
              {item.kind === 'toolset' ? (
                <>
                  <span class="badge small">tool set</span> <code>{item.command}</code>
                </>
              ) : item.kind === 'tool' ? (
                <>
                  <code>{item.command}</code> <span class="muted small">{item.tool.description.split('\n')[0]}</span>
                </>
              ) : (
                <>
                  <span class="badge small">prompt</span> <code>{item.command}</code> <code class="muted small">{promptUsage(item.prompt)}</code>{' '}
                  <span class="muted small">{(item.prompt.title ?? item.prompt.description ?? '').split('\n')[0]}</span>
                </>
              )}
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}

/** Under the box while no menu shows: the named prompt's arguments and what is still missing. */
export function PromptHint(props: { menu: SlashMenuState }) {
  return (
    <Show when={props.menu.suggestions().length === 0 && props.menu.promptHint()}>
      {(hint) => (
        <div class="composer-notes small" role="status" data-testid="prompt-hint">
          <code>/{hint().prompt.command}</code>
          {hint().prompt.arguments.length === 0 ? ' takes no arguments.' : ' — '}
          <For each={hint().prompt.arguments}>
            {(arg, i) => (
              <>
                {i() > 0 ? ' · ' : ''}
                <code>{arg.name}</code>
                {arg.required ? ' (required)' : ''}
                {arg.description ? `: ${arg.description}` : ''}
              </>
            )}
          </For>
          <Show when={hint().error ?? (hint().missing.length ? `Still needed: ${hint().missing.join(', ')}.` : undefined)}>
            {(problem) => <div class="warn-text">{problem()}</div>}
          </Show>
        </div>
      )}
    </Show>
  );
}
