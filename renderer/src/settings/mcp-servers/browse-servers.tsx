// Settings → MCP servers → "Browse servers": search an MCP registry (settings `mcpRegistry.url`,
// editable here), see a server's details (description, version, packages, remotes, environment
// variables and headers, secret ones marked) and install it with the values it needs; secret
// values go to the keychain. Offline, the runtime answers from its cache and says how old it is.
import { For, Show, createSignal } from 'solid-js';
import type { McpServerView } from '../../../../shared/mcp.ts';
import { registryLocalName, type McpBundleView, type McpRegistrySearch, type McpRegistryServer } from '../../../../shared/mcp-install.ts';
import { useApp } from '../../store/app-context.tsx';

const age = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} seconds` : ms < 7_200_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 3_600_000)} hours`);
const kinds = (s: McpRegistryServer) => [...new Set([...s.packages.map((p) => p.registryType), ...(s.remotes.length ? ['remote'] : [])])].join(', ') || 'none';

/** What a server asks at install: the variables of the package Tooldesk starts (npm first, then PyPI), else the first remote's headers. */
function questions(server: McpRegistryServer): Array<{ name: string; description?: string; secret: boolean; required: boolean; value?: string }> {
  const pkg = server.packages.find((p) => p.registryType === 'npm') ?? server.packages.find((p) => p.registryType === 'pypi');
  if (pkg) return pkg.environmentVariables.map((v) => ({ name: v.name, ...(v.description ? { description: v.description } : {}), secret: v.isSecret, required: v.isRequired, ...(v.default ? { value: v.default } : {}) }));
  return (server.remotes[0]?.headers ?? []).map((h) => ({ name: h.name, ...(h.description ? { description: h.description } : {}), secret: h.isSecret, required: false, ...(h.value ? { value: h.value } : {}) }));
}

/** Installed from its mcpb bundle (as the runtime chooses: no npm or PyPI package to start). */
const bundleOnly = (server: McpRegistryServer) => !server.packages.some((p) => p.registryType === 'npm' || p.registryType === 'pypi') && server.packages.some((p) => p.registryType === 'mcpb');

interface Installed {
  onInstalled: (rows: McpServerView[]) => void;
  /** A bundle downloaded and opened: Settings shows it like a picked one (its manifest and form). */
  onBundle: (bundle: McpBundleView) => void;
}

export function BrowseServers(props: Installed & { onClose: () => void }) {
  const app = useApp();
  const [url, setUrl] = createSignal(app.state.settings?.mcpRegistry?.url ?? '');
  const [text, setText] = createSignal('');
  const [found, setFound] = createSignal<McpRegistrySearch | null>(null);
  const [chosen, setChosen] = createSignal<McpRegistryServer | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const search = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    setChosen(null);
    const wanted = url().trim();
    if (!wanted) return setProblem('No registry is set: enter the URL of an MCP registry (its v0.1 API, e.g. a subregistry your team runs).');
    setBusy(true);
    try {
      // The URL typed here becomes the registry of `tooldesk mcp search` too.
      if (wanted !== (app.state.settings?.mcpRegistry?.url ?? '')) await app.api.setSettings({ patch: { mcpRegistry: { url: wanted } } });
      setFound(await app.api.searchMcpRegistry({ text: text().trim() }));
    } catch (error) {
      setFound(null);
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card stack mcp-browse" aria-labelledby="mcp-browse-title" data-testid="mcp-browse">
      <div class="row">
        <strong id="mcp-browse-title" class="grow">
          Browse servers
        </strong>
        <button type="button" class="small" onClick={props.onClose} data-testid="mcp-browse-close">
          Close
        </button>
      </div>
      <form class="stack" role="search" onSubmit={(e) => void search(e)}>
        <label>
          Registry URL
          <input type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://registry.example.com" data-testid="mcp-browse-url" />
        </label>
        <div class="row">
          <label class="sr-only" for="mcp-browse-text">
            Search servers
          </label>
          <input id="mcp-browse-text" type="search" class="grow" value={text()} onInput={(e) => setText(e.currentTarget.value)} placeholder="weather, files, github…" data-testid="mcp-browse-text" />
          <button type="submit" class="primary" disabled={busy()} data-testid="mcp-browse-search">
            Search
          </button>
        </div>
      </form>
      <Show when={problem()}>
        <p class="error-text small" role="alert" data-testid="mcp-browse-problem">
          {problem()}
        </p>
      </Show>
      <Show when={found()}>
        {(f) => (
          <>
            <Show when={f().cachedAgeMs !== undefined}>
              <p class="warn-text small" role="status" data-testid="mcp-browse-cached">
                The registry could not be reached: these results are from the cache, {age(f().cachedAgeMs!)} old.
              </p>
            </Show>
            <ul class="group-list" aria-label="Servers found" data-testid="mcp-browse-results">
              <For each={f().servers} fallback={<li class="muted small">No servers match “{text()}”.</li>}>
                {(server) => (
                  <li>
                    <button type="button" class="mcp-result" aria-pressed={chosen()?.name === server.name} onClick={() => setChosen(server)} data-testid="mcp-browse-result" data-name={server.name}>
                      <strong>{server.title ?? server.name}</strong> <span class="muted small">{server.version} · {kinds(server)}</span>
                      <br />
                      <span class="muted small">{server.name}</span>
                    </button>
                  </li>
                )}
              </For>
            </ul>
          </>
        )}
      </Show>
      <Show when={chosen()} keyed>
        {(server) => <ServerDetails server={server} onInstalled={props.onInstalled} onBundle={props.onBundle} />}
      </Show>
    </section>
  );
}

function ServerDetails(props: Installed & { server: McpRegistryServer }) {
  const app = useApp();
  const s = () => props.server;
  const asked = questions(props.server);
  const [values, setValues] = createSignal<Record<string, string>>(Object.fromEntries(asked.map((q) => [q.name, q.value ?? ''])));
  const [name, setName] = createSignal(registryLocalName(props.server.name));
  const [problem, setProblem] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const install = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    const missing = asked.filter((q) => q.required && !(values()[q.name] ?? '').trim());
    if (missing.length) return setProblem(`Fill in ${missing.map((q) => q.name).join(', ')} (required).`);
    setBusy(true);
    try {
      if (bundleOnly(s())) return props.onBundle(await app.api.openMcpRegistryBundle({ name: s().name }));
      const given = Object.fromEntries(Object.entries(values()).filter(([, v]) => v.trim() !== ''));
      props.onInstalled(await app.api.installMcpRegistryServer({ name: s().name, values: given, ...(name().trim() ? { localName: name().trim() } : {}) }));
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="stack mcp-details" onSubmit={(e) => void install(e)} aria-label={`Details of ${s().name}`} data-testid="mcp-browse-details">
      <strong>
        {s().title ?? s().name} <span class="muted small">{s().version}</span>
      </strong>
      <Show when={s().description}>
        <p class="small">{s().description}</p>
      </Show>
      <dl class="mcp-facts small">
        <dt>Name</dt>
        <dd>{s().name}</dd>
        <For each={s().packages}>
          {(p) => (
            <>
              <dt>Package</dt>
              <dd>
                {p.registryType}: <code>{p.identifier}{p.version ? `@${p.version}` : ''}</code>
              </dd>
            </>
          )}
        </For>
        <For each={s().remotes}>
          {(r) => (
            <>
              <dt>Remote</dt>
              <dd>
                {r.type}: <code>{r.url}</code>
              </dd>
            </>
          )}
        </For>
      </dl>
      <Show when={!bundleOnly(s())}>
        <label>
          Server name
          <input type="text" value={name()} onInput={(e) => setName(e.currentTarget.value)} data-testid="mcp-browse-name" />
        </label>
      </Show>
      <For each={asked}>
        {(q) => {
          const id = `mcp-browse-var-${q.name}`.replace(/[^A-Za-z0-9_-]/g, '_');
          return (
            <div class="stack mcp-field" data-testid="mcp-browse-var" data-var={q.name}>
              <label for={id}>
                <code>{q.name}</code>
                <span class="muted small"> ({[q.required ? 'required' : 'optional', q.secret ? 'secret: kept in the keychain' : ''].filter(Boolean).join(' · ')})</span>
              </label>
              <input id={id} type={q.secret ? 'password' : 'text'} autocomplete="off" aria-required={q.required} value={values()[q.name] ?? ''} onInput={(e) => setValues({ ...values(), [q.name]: e.currentTarget.value })} />
              <Show when={q.description}>
                <span class="muted small">{q.description}</span>
              </Show>
            </div>
          );
        }}
      </For>
      <Show when={problem()}>
        <p class="error-text small" role="alert" data-testid="mcp-browse-install-problem">
          {problem()}
        </p>
      </Show>
      <div class="row">
        <button type="submit" class="primary" disabled={busy()} data-testid="mcp-browse-install">
          {bundleOnly(s()) ? 'Download and open bundle' : 'Install'}
        </button>
      </div>
    </form>
  );
}
