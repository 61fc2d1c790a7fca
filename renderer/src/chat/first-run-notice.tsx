import { For, Show, createResource, createSignal } from 'solid-js';
import type { DetectedProvider } from '../../../shared/api.ts';
import type { ProviderConfig } from '../../../shared/settings.ts';
import { useApp } from '../store/app-context.tsx';

/** Shown while no model provider is configured: how to add one, and local servers we found. */
export function FirstRunNotice(props: { onOpenSettings: (section?: string) => void; onNewTool: () => void }) {
  const app = useApp();
  const [detected] = createResource(() => app.api.detectLocalProviders().catch(() => [] as DetectedProvider[]));
  const [info] = createResource(() => app.api.appInfo().catch(() => null));
  const [opened, setOpened] = createSignal<string | null>(null);
  const openFolder = async () => {
    const answer = await app.guard(() => app.api.openToolsFolder());
    if (answer) setOpened(answer.opened ? `Opened ${answer.path} in your file manager.` : `No file manager could be started here: the folder is ${answer.path}.`);
  };

  const use = async (found: DetectedProvider) => {
    const provider: ProviderConfig = { ...found.provider, model: found.provider.model || (found.models[0] ?? '') };
    const providers = [...(app.state.settings?.providers ?? []), provider];
    await app.guard(() => app.api.setSettings({ patch: { providers, activeProviderId: provider.id } }));
  };

  return (
    <div class="first-run card" data-testid="first-run">
      <h2>No model provider yet</h2>
      <p>
        Tooldesk talks to any OpenAI-compatible server: OpenAI, OpenRouter, DeepSeek, or a local Ollama, LM Studio,
        vLLM or llama.cpp. Add one under <button type="button" class="link" onClick={() => props.onOpenSettings('providers')}>Settings → Providers</button>{' '}
        with its base URL, a model and (if it needs one) an API key.
      </p>
      <Show when={(detected() ?? []).length > 0}>
        <div class="stack">
          <For each={detected()}>
            {(found) => (
              <div class="row">
                <span class="badge ok">found</span>
                <span class="grow">
                  {found.provider.name} at <code>{found.provider.baseURL}</code> ({found.models.length} models)
                </span>
                <button type="button" class="primary" onClick={() => void use(found)}>
                  Use it
                </button>
              </div>
            )}
          </For>
        </div>
      </Show>
      <h3>Your own tools</h3>
      <p data-testid="first-run-tools">
        Your tools go in <code data-testid="first-run-tools-folder">{info()?.toolsFolder ?? 'the tools folder'}</code>: a script with its{' '}
        <code>tool.json</code>, a Python or TypeScript file, an Open WebUI toolkit… Each kind lands in a group of its own, and a new group starts{' '}
        <strong>off</strong>: switch it on under{' '}
        <button type="button" class="link" onClick={() => props.onOpenSettings('groups')}>
          Settings → Tool groups
        </button>
        , or for one chat in the <em>Tools</em> menu beside Send.
      </p>
      <div class="row wrap">
        <button type="button" onClick={() => void openFolder()} data-testid="first-run-open-folder">
          Open folder
        </button>
        <button type="button" onClick={() => props.onNewTool()} data-testid="first-run-new-tool">
          New tool
        </button>
        <Show when={opened()}>
          <span class="small muted" role="status" data-testid="first-run-opened">
            {opened()}
          </span>
        </Show>
      </div>
      <p class="muted small">
        Tools work without a model: type <code>/tool_name {'{"arg": "value"}'}</code> here, or use the Tools panel's Run form.
      </p>
    </div>
  );
}
