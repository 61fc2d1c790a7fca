import { For, Show, createMemo, createSignal } from 'solid-js';
import type { CreatedTool, ToolFiles } from '../../../shared/api.ts';
import { UNTRUSTED_FOLDER_CODE, type Diagnostic, type ToolInfo } from '../../../shared/tools.ts';
import { useApp } from '../store/app-context.tsx';
import { DiagnosticsList } from './diagnostics-list.tsx';
import { UntrustedFolders } from './untrusted-folders.tsx';
import { ToolRunForm } from './tool-run-form.tsx';
import { ToolEditor } from './tool-editor.tsx';
import { NewToolForm, type CreatedSkill } from './new-tool-form.tsx';
import './tools.css';

const EDITABLE = new Set(['script', 'three-layer']);

/** Every tool with its format, source and diagnostics; Run forms; New tool; Reload. */
/** `creating`: open with the New tool form shown (the first-run notice's and the Tools menu's "New tool"). */
export function ToolsPanel(props: { creating?: boolean }) {
  const app = useApp();
  const [selected, setSelected] = createSignal<string | null>(null);
  const [filter, setFilter] = createSignal('');
  const [creating, setCreating] = createSignal(!!props.creating);
  const [editing, setEditing] = createSignal<ToolFiles | null>(null);
  /** A new tool the app cannot edit (module, Python, PowerShell): where it is, and that it loaded. */
  const [created, setCreated] = createSignal<CreatedTool | null>(null);
  const [createdSkill, setCreatedSkill] = createSignal<CreatedSkill | null>(null);
  const [reloading, setReloading] = createSignal(false);

  const tools = createMemo(() => app.state.tools.groups.flatMap((g) => g.tools));
  const groupNames = createMemo(() => app.state.tools.groups.map((g) => g.name));
  const groupNamed = (name: string) => app.state.tools.groups.find((g) => g.name === name);
  const matches = (t: ToolInfo) => {
    const q = filter().toLowerCase();
    return !q || t.name.toLowerCase().includes(q) || t.description.toLowerCase().includes(q) || t.groupName.toLowerCase().includes(q);
  };

  /** Diagnostics about the tool's own folder (or file, for loose module tools). */
  const diagnosticsOf = (tool: ToolInfo) => {
    const file = tool.source?.file;
    if (!file) return [];
    const dir = file.slice(0, Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
    const own = EDITABLE.has(tool.format) ? (d: { file: string }) => d.file.startsWith(dir) : (d: { file: string }) => d.file === file;
    return app.state.tools.diagnostics.filter(own);
  };
  const reload = async () => {
    setReloading(true);
    await app.guard(() => app.api.reloadTools());
    setReloading(false);
  };
  const edit = async (tool: ToolInfo) => {
    const files = await app.guard(() => app.api.readTool({ name: tool.name }));
    if (files) setEditing(files);
  };

  return (
    <div class="tools-panel stack" data-testid="tools-panel">
      <div class="row">
        <input type="search" class="grow" placeholder="Filter tools" aria-label="Filter tools" value={filter()} onInput={(e) => setFilter(e.currentTarget.value)} />
        <button
          type="button"
          onClick={() => {
            setCreated(null);
            setCreating(true);
          }}
          data-testid="new-tool"
        >
          New tool
        </button>
        <button type="button" disabled={reloading()} onClick={() => void reload()} data-testid="reload-tools">
          {reloading() ? 'Reloading…' : 'Reload'}
        </button>
      </div>
      <Show when={creating()}>
        <NewToolForm
          onCancel={() => setCreating(false)}
          onCreatedSkill={(skill) => {
            setCreating(false);
            setCreatedSkill(skill);
          }}
          onCreated={(tool) => {
            setCreating(false);
            if (tool.files) setEditing(tool.files);
            else {
              setCreated(tool);
              setFilter('');
              if (tool.tools[0]) setSelected(tool.tools[0]);
            }
          }}
        />
      </Show>
      <Show when={created()}>
        {(tool) => (
          <div class="card stack small" role="status" data-testid="tool-created">
            <div class="row">
              <span class="grow">
                Created <code>{tool().paths.join(', ')}</code>. Edit it in your editor: it reloads when you save.
              </span>
              <button type="button" onClick={() => setCreated(null)}>
                Close
              </button>
            </div>
            <Show when={tool().tools.length === 0}>
              <span class="error-text">It did not load; the problems are listed below.</span>
            </Show>
          </div>
        )}
      </Show>
      <Show when={createdSkill()}>
        {(skill) => (
          <div class="card stack small" role="status" data-testid="skill-created">
            <div class="row">
              <span class="grow">
                Created skill <code>{skill().id}</code> in <code>{skill().dir}</code> ({skill().files.length} files). Edit its <code>SKILL.md</code> in your editor; it is
                listed in Settings → Skills and offered to the model as <code>activate_skill</code>.
              </span>
              <button type="button" onClick={() => setCreatedSkill(null)}>
                Close
              </button>
            </div>
          </div>
        )}
      </Show>
      <Show when={editing()} keyed>
        {(files) => <ToolEditor tool={files} onClose={() => setEditing(null)} />}
      </Show>
      <UntrustedFolders diagnostics={app.state.tools.diagnostics} />
      <DiagnosticsList diagnostics={app.state.tools.diagnostics.filter((d) => d.code !== UNTRUSTED_FOLDER_CODE)} />
      {/* Keyed by name: a tools.changed event brings new objects, and a Run form being filled in must survive it. */}
      <For each={groupNames()}>
        {(groupName) => (
          <Show when={groupNamed(groupName)?.tools.some(matches) && groupNamed(groupName)}>
            {(group) => (
              <div class="tool-group">
                <div class="tool-group-head row">
                  <strong>{group().name}</strong>
                  <span class={`badge ${group().enabled ? 'ok' : ''}`}>{group().enabled ? 'on' : 'off'}</span>
                  <Show when={group().builtin}>
                    <span class="badge">built-in</span>
                  </Show>
                </div>
                <ul class="tool-list">
                  <For each={group().tools.filter(matches).map((t) => t.name)}>
                    {(toolName) => (
                      <Show when={group().tools.find((t) => t.name === toolName)}>
                        {(tool) => (
                          <ToolItem
                            tool={tool()}
                            groupEnabled={group().enabled}
                            open={selected() === toolName}
                            onToggle={() => setSelected(selected() === toolName ? null : toolName)}
                            diagnostics={diagnosticsOf(tool())}
                            onEdit={() => void edit(tool())}
                          />
                        )}
                      </Show>
                    )}
                  </For>
                </ul>
              </div>
            )}
          </Show>
        )}
      </For>
      <Show when={tools().length === 0}>
        <p class="muted">No tools found. Create one with New tool, or drop tool folders into your tools folder and press Reload.</p>
      </Show>
    </div>
  );
}

/** One tool in the list; opened, its source, diagnostics, policies, Edit files and Run form. */
function ToolItem(props: { tool: ToolInfo; groupEnabled: boolean; open: boolean; onToggle: () => void; diagnostics: Diagnostic[]; onEdit: () => void }) {
  return (
    <li class={props.open ? 'selected' : ''} data-testid="tool-item" data-tool={props.tool.name}>
      <button type="button" class="tool-open" onClick={() => props.onToggle()} aria-expanded={props.open}>
        <code>{props.tool.name}</code>
        <span class="badge">{props.tool.format}</span>
        <Show when={!props.tool.enabled}>
          <span class="badge">disabled</span>
        </Show>
        <span class="muted small grow tool-desc">{props.tool.description}</span>
      </button>
      <Show when={props.open}>
        <div class="tool-detail stack">
          <Show when={props.tool.source}>
            {(source) => (
              <div class="small muted mono">
                {source().file}
                {source().line !== undefined ? `:${source().line}` : ''}
              </div>
            )}
          </Show>
          <DiagnosticsList diagnostics={props.diagnostics} />
          <div class="small">
            Execution: <strong>{props.tool.permission.executionPolicy}</strong> · result approval: <strong>{props.tool.permission.resultApprovalPolicy}</strong>
          </div>
          <Show when={EDITABLE.has(props.tool.format)}>
            <div>
              <button type="button" onClick={() => props.onEdit()}>
                Edit files
              </button>
            </div>
          </Show>
          <ToolRunForm tool={props.tool} groupEnabled={props.groupEnabled} />
        </div>
      </Show>
    </li>
  );
}
