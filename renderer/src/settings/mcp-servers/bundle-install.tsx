// Settings → MCP servers → "Install bundle…": a `.mcpb` picked (or dropped on the window) is sent
// to the runtime, which unpacks and checks it; its manifest is shown with a form for its
// `user_config`, then Install (switched on) or Cancel (the staged bundle is removed).
import { For, Show, createResource, createSignal } from 'solid-js';
import type { McpServerView } from '../../../../shared/mcp.ts';
import type { McpBundleField, McpBundleView } from '../../../../shared/mcp-install.ts';
import { toBase64 } from '../../chat/composer/read-attachment.ts';
import { useApp } from '../../store/app-context.tsx';

/** The largest bundle the app takes (its base64 must fit the API's 4 MB request); bigger ones install from the terminal. */
export const MAX_BUNDLE_BYTES = 2.9 * 1024 * 1024;

/** Sends the file to the runtime; the bundle view, or what is wrong for the user. */
export async function openBundleFile(api: ReturnType<typeof useApp>['api'], file: File): Promise<McpBundleView | { problem: string }> {
  if (!/\.mcpb$/i.test(file.name)) return { problem: `${file.name} is not an MCP bundle: choose a .mcpb file.` };
  if (file.size > MAX_BUNDLE_BYTES) return { problem: `${file.name} is larger than 2.9 MB, the most the app takes: install it with \`tooldesk mcp install ${file.name}\`.` };
  try {
    return await api.openMcpBundle({ fileName: file.name, data: toBase64(await file.arrayBuffer()) });
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** The "Install bundle…" button: a file input that takes `.mcpb` files. */
export function BundlePicker(props: { onFile: (file: File) => void }) {
  let input: HTMLInputElement | undefined;
  return (
    <>
      <button type="button" onClick={() => input?.click()} data-testid="mcp-bundle-open">
        Install bundle…
      </button>
      <input
        ref={input}
        type="file"
        accept=".mcpb"
        hidden
        aria-label="MCP bundle file"
        data-testid="mcp-bundle-file"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (file) props.onFile(file);
        }}
      />
    </>
  );
}

const initialText = (field: McpBundleField): string => (field.default === undefined ? (field.type === 'boolean' ? 'false' : '') : String(field.default));

function signatureText(signature: McpBundleView['signature']): string {
  if (signature.status === 'signed') return `signed by ${signature.publisher ?? 'a trusted publisher'} (verified)`;
  return signature.status === 'self-signed' ? 'self-signed (not from a trusted publisher)' : 'unsigned';
}

/** The opened bundle: its manifest, its settings form, Install and Cancel. */
export function BundleInstall(props: { bundle: McpBundleView; onInstalled: (rows: McpServerView[]) => void; onCancel: () => void }) {
  const app = useApp();
  const b = () => props.bundle;
  const [values, setValues] = createSignal<Record<string, string>>(Object.fromEntries(props.bundle.userConfig.map((f) => [f.key, initialText(f)])));
  const [name, setName] = createSignal(props.bundle.name);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const set = (key: string, value: string) => setValues({ ...values(), [key]: value });
  // Sensitive values go to the keychain only: without one, say so before the form is filled.
  const [info] = createResource(() => app.api.appInfo().catch(() => null));
  const noKeychain = () => !!info() && info()!.secrets.backend !== 'keyring';
  const secretFields = () => b().userConfig.filter((f) => f.sensitive);
  const blocked = () => noKeychain() && secretFields().some((f) => f.required);

  const install = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    const missing = b().userConfig.filter((f) => f.required && (values()[f.key] ?? '').trim() === '');
    if (missing.length) return setProblem(`Fill in ${missing.map((f) => f.title).join(', ')} (required).`);
    const given = Object.fromEntries(Object.entries(values()).filter(([, v]) => v.trim() !== ''));
    setBusy(true);
    try {
      props.onInstalled(await app.api.installMcpBundle({ id: b().id, values: given, ...(name().trim() && name().trim() !== b().name ? { name: name().trim() } : {}) }));
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card stack mcp-bundle" onSubmit={(e) => void install(e)} data-testid="mcp-bundle" aria-labelledby="mcp-bundle-title">
      <strong id="mcp-bundle-title">
        {b().displayName ?? b().name} {b().version}
        <Show when={b().author}>
          <span class="muted small"> by {b().author}</span>
        </Show>
      </strong>
      <Show when={b().description}>
        <p class="small">{b().description}</p>
      </Show>
      <dl class="mcp-facts small" data-testid="mcp-bundle-manifest">
        <dt>File</dt>
        <dd>{b().fileName}</dd>
        <dt>Tools</dt>
        <dd>{b().tools.join(', ') || 'not listed'}</dd>
        <Show when={b().prompts.length > 0}>
          <dt>Prompts</dt>
          <dd>{b().prompts.join(', ')}</dd>
        </Show>
        <dt>Platforms</dt>
        <dd>{b().platforms?.join(', ') ?? 'any'}</dd>
        <Show when={b().privacyPolicies.length > 0}>
          <dt>Privacy policies</dt>
          <dd>
            <For each={b().privacyPolicies}>
              {(url) => (
                <a href={url} target="_blank" rel="noreferrer noopener">
                  {url}{' '}
                </a>
              )}
            </For>
          </dd>
        </Show>
        <dt>Signature</dt>
        <dd>{signatureText(b().signature)}</dd>
      </dl>
      <Show
        when={!b().platformProblem}
        fallback={
          <p class="error-text small" role="alert" data-testid="mcp-bundle-platform">
            It cannot be installed here: {b().platformProblem}.
          </p>
        }
      >
        <Show when={noKeychain() && secretFields().length > 0}>
          <p class="warn-text small" role="alert" data-testid="mcp-bundle-no-keychain">
            <span class="badge warn">no keychain</span> {secretFields().map((f) => f.title).join(', ')} {secretFields().length === 1 ? 'is' : 'are'} kept in the keychain only, and this machine has
            none (see Settings → Runtime).{' '}
            {blocked() ? 'This bundle cannot be installed here until a keychain is available.' : 'Leave them empty to install it without them.'}
          </p>
        </Show>
        <Show when={b().updates}>
          <p class="muted small">It replaces the installed “{b().updates}”.</p>
        </Show>
        <label>
          Server name
          <input type="text" value={name()} onInput={(e) => setName(e.currentTarget.value)} data-testid="mcp-bundle-name" />
        </label>
        <For each={b().userConfig}>{(field) => <ConfigField field={field} value={values()[field.key] ?? ''} disabled={noKeychain() && !!field.sensitive} onInput={(v) => set(field.key, v)} />}</For>
      </Show>
      <Show when={problem()}>
        <p class="error-text small" role="alert" data-testid="mcp-bundle-problem">
          {problem()}
        </p>
      </Show>
      <div class="row">
        <button type="submit" class="primary" disabled={!!b().platformProblem || blocked() || busy()} data-testid="mcp-bundle-install">
          {b().updates ? 'Update' : 'Install'}
        </button>
        <button type="button" onClick={props.onCancel} data-testid="mcp-bundle-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One `user_config` field, by type; a sensitive one says where its value goes. */
function ConfigField(props: { field: McpBundleField; value: string; disabled?: boolean; onInput: (value: string) => void }) {
  const f = () => props.field;
  const id = () => `mcp-bundle-field-${f().key}`;
  const note = () => [f().required ? 'required' : '', f().sensitive ? 'kept in the keychain only' : '', f().type === 'directory' || f().type === 'file' ? `a ${f().type} path on this machine` : ''].filter(Boolean).join(' · ');
  return (
    <Show
      when={f().type !== 'boolean'}
      fallback={
        <label class="row small" data-testid="mcp-bundle-field" data-key={f().key}>
          <input type="checkbox" checked={props.value === 'true'} onChange={(e) => props.onInput(e.currentTarget.checked ? 'true' : 'false')} />
          {f().title}
          <Show when={f().description}>
            <span class="muted"> — {f().description}</span>
          </Show>
        </label>
      }
    >
      <div class="stack mcp-field" data-testid="mcp-bundle-field" data-key={f().key}>
        <label for={id()}>
          {f().title}
          <Show when={note()}>
            <span class="muted small"> ({note()})</span>
          </Show>
        </label>
        <input
          id={id()}
          type={f().sensitive ? 'password' : f().type === 'number' ? 'number' : 'text'}
          value={props.value}
          aria-required={f().required}
          disabled={props.disabled}
          aria-describedby={f().description ? `${id()}-about` : undefined}
          autocomplete="off"
          onInput={(e) => props.onInput(e.currentTarget.value)}
        />
        <Show when={f().description}>
          <span id={`${id()}-about`} class="muted small">
            {f().description}
          </span>
        </Show>
      </div>
    </Show>
  );
}
