// Settings → MCP servers: the list of the user's servers with their live state and switches, and
// the ways to add one (a form, an import from other apps' configs, a .mcpb bundle, the registry).
import { For, Show, createEffect, createSignal, onCleanup, onMount } from 'solid-js';
import type { McpImportPreview, McpServerView } from '../../../../shared/mcp.ts';
import type { McpBundleView } from '../../../../shared/mcp-install.ts';
import { BrowseServers } from './browse-servers.tsx';
import { BundleInstall, BundlePicker, openBundleFile } from './bundle-install.tsx';
import { droppedBundle, takeDroppedBundle } from './bundle-drop.ts';
import { McpSecretMissing } from './mcp-secret-missing.tsx';
import { mcpOfferNote, mcpToolCountText } from '../../../../shared/mcp-tool-count.ts';
import { startingText, startTimelineText } from '../../../../shared/mcp-start-timeline.ts';
import { useApp } from '../../store/app-context.tsx';
import { McpServerFolders } from './mcp-server-folders.tsx';
import { AddServerForm } from './mcp-add-server-form.tsx';
import { ImportPreview } from './mcp-import-preview.tsx';
import { Switch } from '../switch.tsx';
import { confirmDialog } from '../../ui/dialog.tsx';

/** Settings → MCP servers: each server with its live state, its switch, Restart, add, remove, import, install. */
export function McpServersSection() {
  const app = useApp();
  const [servers, setServers] = createSignal<McpServerView[]>([]);
  const [adding, setAdding] = createSignal(false);
  const [preview, setPreview] = createSignal<McpImportPreview | null>(null);
  const [bundle, setBundle] = createSignal<McpBundleView | null>(null);
  const [bundleProblem, setBundleProblem] = createSignal<string | null>(null);
  const [browsing, setBrowsing] = createSignal(false);

  const show = (rows: McpServerView[] | null | undefined) => {
    if (rows) setServers(rows);
  };
  onMount(() => {
    void app.guard(() => app.api.listMcpServers()).then(show);
    const off = app.api.onEvent((event) => {
      if (event.type === 'mcp.changed') show(event.servers);
    });
    onCleanup(off);
  });

  const setEnabled = async (name: string, enabled: boolean) => {
    const tools = await app.guard(() => app.api.setGroupEnabled({ group: name, enabled }));
    if (tools) app.apply({ type: 'tools.changed', tools });
    show(await app.guard(() => app.api.listMcpServers()));
  };
  const restart = async (name: string) => show(await app.guard(() => app.api.restartMcpServer({ name })));
  const allowWrite = async (name: string, folder: string) => show(await app.guard(() => app.api.allowMcpWrite({ name, folder })));
  const argFoldersWritable = async (name: string, writable: boolean) => show(await app.guard(() => app.api.setMcpArgFoldersWritable({ name, writable })));
  const remove = async (name: string) => {
    if (!(await confirmDialog({ title: `Remove the MCP server "${name}"?`, confirmLabel: 'Remove', danger: true }))) return;
    show(await app.guard(() => app.api.removeMcpServer({ name })));
  };
  const openBundle = async (file: File) => {
    setBundleProblem(null);
    const previous = bundle();
    if (previous) void app.api.discardMcpBundle({ id: previous.id }).catch(() => {});
    setBundle(null);
    const opened = await openBundleFile(app.api, file);
    if ('problem' in opened) setBundleProblem(opened.problem);
    else setBundle(opened);
  };
  const cancelBundle = () => {
    const open = bundle();
    setBundle(null);
    if (open) void app.guard(() => app.api.discardMcpBundle({ id: open.id }));
  };
  // Closing Settings with a bundle open is a Cancel.
  onCleanup(() => {
    const open = bundle();
    if (open) void app.api.discardMcpBundle({ id: open.id }).catch(() => {});
  });
  // A bundle dropped on the window (bundle-drop.ts) opens here.
  createEffect(() => {
    if (!droppedBundle()) return;
    const file = takeDroppedBundle();
    if (file) void openBundle(file);
  });
  const installed = (rows: McpServerView[]) => {
    show(rows);
    setBundle(null);
    setBrowsing(false);
    // The new server's group is switched on: the Tools list follows.
    void app.guard(() => app.api.listTools()).then((tools) => tools && app.apply({ type: 'tools.changed', tools }));
  };
  const lookForImports = async () => setPreview((await app.guard(() => app.api.previewMcpImport())) ?? null);
  const importAll = async (request: { names: string[]; answers?: Record<string, string>; allowSecrets?: string[] }) => {
    const rows = await app.guard(() => app.api.importMcpServers(request));
    if (rows) {
      show(rows);
      setPreview(null);
    }
  };

  return (
    <section class="settings-section" aria-labelledby="mcp-title" data-testid="mcp-section">
      <h3 id="mcp-title">MCP servers</h3>
      <p class="muted small">Each server is a tool group: switch it on to start it. Its tools go through the same approvals, variables and sandbox as every tool.</p>
      <ul class="group-list">
        <For each={servers()} fallback={<li class="muted small">No MCP servers. Add one, or import them from Claude Desktop, Cursor, LM Studio or VS Code.</li>}>
          {(server) => (
            <ServerRow
              server={server}
              onEnabled={(on) => void setEnabled(server.name, on)}
              onRestart={() => void restart(server.name)}
              onRemove={() => void remove(server.name)}
              onAllowWrite={(folder) => void allowWrite(server.name, folder)}
              onArgFoldersWritable={(on) => void argFoldersWritable(server.name, on)}
            />
          )}
        </For>
      </ul>
      <div class="row mcp-actions">
        <button type="button" onClick={() => setAdding(!adding())} aria-expanded={adding()} data-testid="mcp-add-open">
          Add server…
        </button>
        <button type="button" onClick={() => void lookForImports()} data-testid="mcp-import-open">
          Import…
        </button>
        <BundlePicker onFile={(file) => void openBundle(file)} />
        <button type="button" onClick={() => setBrowsing(!browsing())} aria-expanded={browsing()} data-testid="mcp-browse-open">
          Browse servers…
        </button>
      </div>
      <p class="muted small">Or drop a .mcpb bundle anywhere on the window.</p>
      <Show when={bundleProblem()}>
        <p class="error-text small" role="alert" data-testid="mcp-bundle-problem">
          {bundleProblem()}
        </p>
      </Show>
      <Show when={bundle()} keyed>
        {(b) => <BundleInstall bundle={b} onInstalled={installed} onCancel={cancelBundle} />}
      </Show>
      <Show when={browsing()}>
        <BrowseServers
          onInstalled={installed}
          onBundle={(opened) => {
            setBrowsing(false);
            setBundle(opened);
          }}
          onClose={() => setBrowsing(false)}
        />
      </Show>
      <Show when={adding()}>
        <AddServerForm
          onAdded={(rows) => {
            show(rows);
            setAdding(false);
          }}
          onCancel={() => setAdding(false)}
        />
      </Show>
      <Show when={preview()}>{(p) => <ImportPreview preview={p()} onImport={(request) => void importAll(request)} onCancel={() => setPreview(null)} />}</Show>
    </section>
  );
}

function stateText(server: McpServerView, now: number): string {
  if (server.problem) return `invalid entry: ${server.problem}`;
  if (server.secretMissing?.length && !server.enabled) return 'secret missing';
  switch (server.status) {
    case 'ready':
      return `ready with ${mcpToolCountText(server)}`;
    case 'failed':
      return 'failed';
    case 'starting':
      return startingText(server.startTimeline, now);
    case 'stopped':
      return 'stopped (starts when a tool is called)';
    default:
      return 'disabled';
  }
}

function ServerRow(props: {
  server: McpServerView;
  onEnabled: (on: boolean) => void;
  onRestart: () => void;
  onRemove: () => void;
  onAllowWrite: (folder: string) => void;
  onArgFoldersWritable: (writable: boolean) => void;
}) {
  const s = () => props.server;
  // A start shows its seconds: a slow server says so, and never holds up the other rows.
  const [now, setNow] = createSignal(Date.now());
  createEffect(() => {
    if (s().status !== 'starting') return;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    onCleanup(() => clearInterval(tick));
  });
  return (
    <li class="group-item card mcp-server" data-testid="mcp-server" data-server={s().name} data-status={s().status}>
      <div class="row">
        <Switch checked={s().enabled} disabled={!!s().problem} label={`Enable MCP server ${s().name}`} onChange={props.onEnabled} testId={`mcp-toggle-${s().name}`} />
        {/* One line: a long name ends in "…" (whole in its tooltip) instead of breaking mid-word. */}
        <strong class="grow mcp-title">
          <span class="mcp-name" title={s().name} data-testid="mcp-name">
            {s().name}
          </span>
          <span class="muted small mcp-meta">
            {' '}
            · {s().transport}
            {s().trusted ? ' · trusted' : ''}
          </span>
        </strong>
        <span class={`mcp-state mcp-state-${s().status}`} data-testid="mcp-state" role="status">
          {stateText(s(), now())}
        </span>
        <button type="button" class="small" disabled={!s().enabled} onClick={props.onRestart} aria-label={`Restart ${s().name}`}>
          Restart
        </button>
        <button type="button" class="link small" onClick={props.onRemove} aria-label={`Remove ${s().name}`}>
          Remove
        </button>
      </div>
      <code class="muted small mcp-target" title={s().target}>
        {s().target}
      </code>
      <Show when={s().sandbox}>
        <p class="muted small" data-testid="mcp-sandbox">
          {s().sandbox}
        </p>
      </Show>
      <Show when={s().secretMissing?.length}>
        <McpSecretMissing server={s()} />
      </Show>
      <Show when={s().status === 'ready' && mcpOfferNote(s().offered, 'app')}>
        {(note) => (
          <p class="muted small" data-testid="mcp-offer-note">
            {note()}
          </p>
        )}
      </Show>
      <Show when={!s().problem}>
        <McpServerFolders server={s()} onAllowWrite={props.onAllowWrite} onArgFoldersWritable={props.onArgFoldersWritable} />
      </Show>
      <Show when={s().status !== 'starting' && s().startTimeline}>
        {(timeline) => (
          <p class="muted small" data-testid="mcp-start-timeline">
            Last start: {startTimelineText(timeline())}
          </p>
        )}
      </Show>
      {/* A ready server's detail is its sandbox note, which the line above already says better. */}
      <Show when={s().detail && s().status !== 'ready'}>
        <pre class={`mcp-detail small ${s().status === 'failed' ? 'error' : 'muted'}`} data-testid="mcp-detail">
          {s().detail}
        </pre>
      </Show>
    </li>
  );
}
