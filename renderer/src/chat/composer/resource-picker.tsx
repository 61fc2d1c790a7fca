import { For, Show, createMemo, createResource, createSignal, onMount } from 'solid-js';
import type { AttachmentUpload } from '../../../../shared/api.ts';
import type { McpListing, McpResourceInfo } from '../../../../shared/mcp.ts';
import { formatSize } from './read-attachment.ts';
import { useLayer } from '../../ui/layers.ts';

/** Where "Attach resource" reads from (the API's listMcpResources / readMcpResource). */
export interface ResourceSource {
  list(): Promise<McpListing<McpResourceInfo>>;
  read(server: string, uri: string): Promise<AttachmentUpload>;
}

/** Every typed word in the name, title, URI, server or description. */
export function filterResources(items: McpResourceInfo[], query: string): McpResourceInfo[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return items;
  return items.filter((r) => {
    const text = `${r.server} ${r.name} ${r.title ?? ''} ${r.uri} ${r.description ?? ''}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/**
 * The resources of the switched-on MCP servers, searchable; picking one reads it (resources/read)
 * and hands it over as an attachment of the message being written. Esc closes it.
 */
export function ResourcePicker(props: { source: ResourceSource; onPick: (upload: AttachmentUpload) => void; onClose: () => void }) {
  useLayer(() => props.onClose());
  const [query, setQuery] = createSignal('');
  const [reading, setReading] = createSignal<string | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [listing] = createResource(() => props.source.list());
  const shown = createMemo(() => filterResources(listing.latest?.items ?? [], query()).slice(0, 200));
  let search!: HTMLInputElement;
  onMount(() => search.focus());
  const pick = async (resource: McpResourceInfo) => {
    setReading(resource.uri);
    setProblem(null);
    try {
      props.onPick(await props.source.read(resource.server, resource.uri));
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setReading(null);
    }
  };
  return (
    <div
      class="resource-picker stack"
      role="dialog"
      aria-label="Attach resource"
      data-testid="resource-picker"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        props.onClose();
      }}
    >
      <div class="row">
        <input ref={search} type="search" aria-label="Search resources" placeholder="Search resources of the switched-on MCP servers" value={query()} onInput={(e) => setQuery(e.currentTarget.value)} />
        <button type="button" class="icon" aria-label="Close resources" onClick={() => props.onClose()}>
          ×
        </button>
      </div>
      <Show when={!listing.loading} fallback={<div class="small muted">Asking the servers…</div>}>
        <Show when={(listing.latest?.items.length ?? 0) > 0} fallback={<div class="small muted">No resources: switch on an MCP server that offers some (Tools, or Settings → MCP servers).</div>}>
          <ul class="resource-list" aria-label="Resources">
            <For each={shown()} fallback={<li class="small muted">No resource matches “{query()}”.</li>}>
              {(resource) => (
                <li>
                  <button type="button" class="link resource-item" disabled={reading() !== null} title={resource.uri} onClick={() => void pick(resource)}>
                    <span class="muted small">{resource.server}</span> {resource.title ?? resource.name}
                    <Show when={resource.size !== undefined}>
                      {' '}
                      <span class="muted small">{formatSize(resource.size!)}</span>
                    </Show>
                    {reading() === resource.uri ? ' — reading…' : ''}
                  </button>
                  <Show when={resource.description}>
                    <div class="small muted">{resource.description!.split('\n')[0]}</div>
                  </Show>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <For each={listing.latest?.problems ?? []}>{(p) => <div class="small warn-text">{p}</div>}</For>
      </Show>
      <Show when={problem() ?? (listing.error ? (listing.error as Error).message : null)}>{(p) => <div class="small error-text" role="alert">{p()}</div>}</Show>
    </div>
  );
}
