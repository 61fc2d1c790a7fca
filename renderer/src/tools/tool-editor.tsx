import { For, Show, createSignal } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { ToolFiles } from '../../../shared/api.ts';
import { useApp } from '../store/app-context.tsx';
import { DiagnosticsList } from './diagnostics-list.tsx';
import { confirmDialog } from '../ui/dialog.tsx';

/** Edits a script-folder or three-layer tool's files; Save writes them and reloads the tool. */
export function ToolEditor(props: { tool: ToolFiles; onClose: () => void }) {
  const app = useApp();
  const [files, setFiles] = createStore<Record<string, string>>({ ...props.tool.files });
  const [current, setCurrent] = createSignal<ToolFiles>(props.tool);
  const [active, setActive] = createSignal(Object.keys(props.tool.files)[0] ?? '');
  const [saving, setSaving] = createSignal(false);
  const [saved, setSaved] = createSignal(false);

  const save = async () => {
    setSaving(true);
    setSaved(false);
    const next = await app.guard(() => app.api.updateTool({ name: current().name, files: { ...files } }));
    if (next) {
      setCurrent(next);
      setFiles(reconcile({ ...next.files }));
      setSaved(true);
    }
    setSaving(false);
  };

  const remove = async () => {
    if (!(await confirmDialog({ title: 'Delete this tool?', message: `The folder ${current().dir} is deleted with everything in it.`, confirmLabel: 'Delete', danger: true }))) return;
    const done = await app.guard(() => app.api.deleteTool({ name: current().name }));
    if (done !== undefined) props.onClose();
  };

  return (
    <div class="tool-editor card stack" data-testid="tool-editor">
      <div class="row">
        <strong class="grow">
          {current().name} <span class="muted small">({current().format})</span>
        </strong>
        <button type="button" onClick={() => props.onClose()}>
          Close
        </button>
      </div>
      <div class="muted small mono">{current().dir}</div>
      <div class="tabs row wrap" role="tablist">
        <For each={Object.keys(files)}>
          {(name) => (
            <button type="button" role="tab" aria-selected={active() === name} class={active() === name ? 'tab active' : 'tab'} onClick={() => setActive(name)}>
              {name}
            </button>
          )}
        </For>
      </div>
      <textarea
        class="mono code-editor"
        rows={14}
        spellcheck={false}
        aria-label={`Contents of ${active()}`}
        data-testid="tool-file-editor"
        value={files[active()] ?? ''}
        onInput={(e) => setFiles(active(), e.currentTarget.value)}
      />
      <DiagnosticsList diagnostics={current().diagnostics ?? []} />
      <div class="row">
        <button type="button" class="primary" disabled={saving()} onClick={() => void save()} data-testid="save-tool">
          {saving() ? 'Saving…' : 'Save'}
        </button>
        <Show when={saved()}>
          <span class="small muted">Saved; the tool reloads.</span>
        </Show>
        <span class="grow" />
        <button type="button" class="danger" onClick={() => void remove()}>
          Delete tool
        </button>
      </div>
    </div>
  );
}
