import { For, Show, createSignal } from 'solid-js';
import { UNTRUSTED_FOLDER_CODE, type Diagnostic } from '../../../shared/tools.ts';
import { useApp } from '../store/app-context.tsx';

/**
 * Project tool folders found under the working folder that the user has not approved: nothing in
 * them is loaded until "Trust this folder" (like an editor's workspace trust).
 */
export function UntrustedFolders(props: { diagnostics: readonly Diagnostic[] }) {
  const app = useApp();
  const [busy, setBusy] = createSignal<string | null>(null);
  const folders = () => props.diagnostics.filter((d) => d.code === UNTRUSTED_FOLDER_CODE).map((d) => d.file);
  const trust = async (path: string) => {
    setBusy(path);
    await app.guard(() => app.api.trustToolFolder({ path, trusted: true }));
    setBusy(null);
  };
  return (
    <Show when={folders().length > 0}>
      <section class="untrusted-folders stack" data-testid="untrusted-folders" aria-label="Untrusted project folders">
        <For each={folders()}>
          {(path) => (
            <div class="untrusted-folder" data-testid="untrusted-folder" data-path={path}>
              <div>
                <span class="badge warn">untrusted project folder — review</span> <code class="small">{path}</code>
              </div>
              <div class="muted small">
                None of its tools is loaded: a project you opened (or a tool that can write the working folder) could have put it there. Look at what is in it; trust it only if you
                know where it came from.
              </div>
              <div>
                <button type="button" disabled={busy() === path} onClick={() => void trust(path)} data-testid="trust-folder">
                  {busy() === path ? 'Loading…' : 'Trust this folder'}
                </button>
              </div>
            </div>
          )}
        </For>
      </section>
    </Show>
  );
}
