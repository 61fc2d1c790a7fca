import { For, Show, createEffect, createSignal, onCleanup, onMount } from 'solid-js';
import type { McpImportPreview, McpServerView } from '../../../shared/mcp.ts';
import type { McpBundleView } from '../../../shared/mcp-install.ts';
import { BrowseServers } from './browse-servers.tsx';
import { BundleInstall, BundlePicker, openBundleFile } from './bundle-install.tsx';
import { droppedBundle, takeDroppedBundle } from './bundle-drop.ts';
import { McpSecretMissing } from './mcp-secret-missing.tsx';
import { mcpOfferNote, mcpToolCountText } from '../../../shared/mcp-tool-count.ts';
import { startingText, startTimelineText } from '../../../shared/mcp-start-timeline.ts';
import { useApp } from '../store/app-context.tsx';
import { McpServerFolders } from './mcp-server-folders.tsx';
import { splitCommandLine } from './split-command-line.ts';
import { Switch } from './switch.tsx';
import { confirmDialog } from '../ui/dialog.tsx';

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

function AddServerForm(props: { onAdded: (rows: McpServerView[]) => void; onCancel: () => void }) {
  const app = useApp();
  const [kind, setKind] = createSignal<'command' | 'url'>('command');
  const [name, setName] = createSignal('');
  const [target, setTarget] = createSignal('');
  const [problem, setProblem] = createSignal<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    if (!name().trim()) return setProblem('Give the server a name (its tools are called NAME__tool).');
    if (!target().trim()) return setProblem(kind() === 'url' ? 'Give the server’s URL.' : 'Give the command that starts the server.');
    let request: { name: string; command?: string; args?: string[]; url?: string };
    if (kind() === 'url') request = { name: name().trim(), url: target().trim() };
    else {
      const words = splitCommandLine(target());
      if (!words || words.length === 0) return setProblem('The command has an unclosed quote.');
      request = { name: name().trim(), command: words[0]!, args: words.slice(1) };
    }
    try {
      props.onAdded(await app.api.addMcpServer(request));
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <form class="card stack mcp-add" onSubmit={(e) => void submit(e)} data-testid="mcp-add-form">
      <div class="row" role="radiogroup" aria-label="Kind of server">
        <label>
          <input type="radio" name="mcp-kind" checked={kind() === 'command'} onChange={() => setKind('command')} /> Local (command)
        </label>
        <label>
          <input type="radio" name="mcp-kind" checked={kind() === 'url'} onChange={() => setKind('url')} /> Remote (URL)
        </label>
      </div>
      <label>
        Name
        <input type="text" value={name()} onInput={(e) => setName(e.currentTarget.value)} data-testid="mcp-add-name" placeholder="files" />
      </label>
      <label>
        {kind() === 'url' ? 'URL' : 'Command and arguments'}
        <input
          type={kind() === 'url' ? 'url' : 'text'}
          value={target()}
          onInput={(e) => setTarget(e.currentTarget.value)}
          data-testid="mcp-add-target"
          placeholder={kind() === 'url' ? 'https://example.com/mcp' : 'npx -y @modelcontextprotocol/server-filesystem ~/Documents'}
        />
      </label>
      <Show when={problem()}>
        <p class="error small" role="alert" data-testid="mcp-add-problem">
          {problem()}
        </p>
      </Show>
      <div class="row">
        <button type="submit" class="primary" data-testid="mcp-add-submit">
          Add
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ImportPreview(props: { preview: McpImportPreview; onImport: (request: { names: string[]; answers?: Record<string, string>; allowSecrets?: string[] }) => void; onCancel: () => void }) {
  const [chosen, setChosen] = createSignal<string[]>(props.preview.add.map((s) => s.name));
  const [allowed, setAllowed] = createSignal<string[]>([]);
  const [answers, setAnswers] = createSignal<Record<string, string>>({});
  const toggle = (name: string, on: boolean) => setChosen(on ? [...chosen(), name] : chosen().filter((n) => n !== name));
  const allow = (name: string, on: boolean) => setAllowed(on ? [...allowed(), name] : allowed().filter((n) => n !== name));
  const submit = () => {
    const names = chosen();
    const extra = props.preview.add.filter((s) => names.includes(s.name));
    const given = Object.fromEntries(Object.entries(answers()).filter(([secret, value]) => value !== '' && extra.some((s) => s.questions.some((q) => q.secret === secret))));
    const allowSecrets = allowed().filter((name) => extra.some((s) => s.foreign.includes(name)));
    props.onImport({ names, ...(Object.keys(given).length ? { answers: given } : {}), ...(allowSecrets.length ? { allowSecrets } : {}) });
  };
  return (
    <div class="card stack mcp-import" data-testid="mcp-import-preview">
      <strong>Import MCP servers</strong>
      <Show when={props.preview.add.length > 0} fallback={<p class="muted small">Nothing new to import.</p>}>
        <p class="muted small">These will be added, switched off. Secrets found in their settings move to the keychain.</p>
        <ul class="group-list">
          <For each={props.preview.add}>
            {(server) => (
              <li class="row" data-testid="mcp-import-candidate">
                <input type="checkbox" checked={chosen().includes(server.name)} onChange={(e) => toggle(server.name, e.currentTarget.checked)} aria-label={`Import ${server.name}`} />
                <span class="grow">
                  <strong>{server.name}</strong> <span class="muted small">from {server.from}</span>
                  <br />
                  <code class="small">{server.target}</code>
                  <Show when={server.secrets.length > 0}>
                    <span class="muted small"> · to the keychain: {server.secrets.join(', ')}</span>
                  </Show>
                  <Show when={(server.references ?? []).length > 0}>
                    <br />
                    <span class="muted small" data-testid="mcp-import-references">
                      receives keychain secrets: {server.references.join(', ')}
                    </span>
                  </Show>
                  <Show when={(server.fromEnvironment ?? []).length > 0}>
                    <br />
                    <span class="muted small" data-testid="mcp-import-env">
                      reads from the environment when it starts: {(server.fromEnvironment ?? []).map((n) => `$${n}`).join(', ')}
                    </span>
                  </Show>
                  <For each={server.warnings ?? []}>
                    {(warning) => (
                      <p class="small warning" data-testid="mcp-import-warning">
                        {warning}
                      </p>
                    )}
                  </For>
                  <For each={server.foreign ?? []}>
                    {(secret) => (
                      <label class="row small" data-testid="mcp-import-allow">
                        <input type="checkbox" checked={allowed().includes(secret)} onChange={(e) => allow(secret, e.currentTarget.checked)} />
                        Give {secret} to {server.name} (not one of its own secrets)
                      </label>
                    )}
                  </For>
                  <For each={server.questions ?? []}>
                    {(q) => (
                      <label class="row small" data-testid="mcp-import-input">
                        {q.description} ({q.id})
                        <input
                          type={q.password ? 'password' : 'text'}
                          value={answers()[q.secret] ?? ''}
                          onInput={(e) => setAnswers({ ...answers(), [q.secret]: e.currentTarget.value })}
                          aria-label={`${server.name}: ${q.description}`}
                        />
                      </label>
                    )}
                  </For>
                </span>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <For each={props.preview.skipped}>
        {(s) => (
          <p class="muted small" data-testid="mcp-import-skipped">
            Skipped {s.name} ({s.from}): {s.reason}
          </p>
        )}
      </For>
      <For each={props.preview.problems}>{(p) => <p class="error small">{p}</p>}</For>
      <details class="muted small">
        <summary>Where we looked</summary>
        <For each={props.preview.searched}>{(f) => <div>{f}</div>}</For>
      </details>
      <div class="row">
        <button type="button" class="primary" disabled={chosen().length === 0} onClick={submit} data-testid="mcp-import-confirm">
          Import {chosen().length}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
