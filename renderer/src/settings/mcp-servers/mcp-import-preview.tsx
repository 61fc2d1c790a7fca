// Settings → MCP servers → "Import…": what an import from Claude Desktop, Cursor, LM Studio and
// VS Code configs would add, to choose from: each server's secrets (to the keychain), the secrets it
// would receive, the answers its config asks for, and what was skipped and why.
import { For, Show, createSignal } from 'solid-js';
import type { McpImportPreview } from '../../../../shared/mcp.ts';

export function ImportPreview(props: { preview: McpImportPreview; onImport: (request: { names: string[]; answers?: Record<string, string>; allowSecrets?: string[] }) => void; onCancel: () => void }) {
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
