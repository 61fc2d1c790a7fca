// A server row's "secret missing" mark (imported with `--skip-secrets`): each secret it waits
// for, with the command that sets it and a field to enter it here. Storing one clears it from
// the mark (the row updates from the settings change).
import { For, Show, createResource, createSignal } from 'solid-js';
import type { McpServerView } from '../../../../shared/mcp.ts';
import { secretEnvName } from '../../../../shared/secret-env-name.ts';
import { useApp } from '../../store/app-context.tsx';

export function McpSecretMissing(props: { server: McpServerView }) {
  const app = useApp();
  // Without a keychain a value entered here lasts until the app stops, and the mark stays.
  const [info] = createResource(() => app.api.appInfo().catch(() => null));
  const noKeyring = () => !!info() && info()!.secrets.backend !== 'keyring';
  return (
    <div class="stack mcp-secret-missing" data-testid="mcp-secret-missing">
      <For each={props.server.secretMissing ?? []}>{(secret) => <MissingSecret server={props.server.name} secret={secret} />}</For>
      <Show when={noKeyring()}>
        <p class="small muted" data-testid="mcp-secret-missing-no-keyring">
          <span class="badge warn">no keyring</span> A value entered here is kept only until Tooldesk stops, so the server stays marked until a keychain can hold it. To give it
          for good without a keychain, export <For each={props.server.secretMissing ?? []}>{(secret, i) => <>{i() > 0 ? ', ' : ''}<code>{secretEnvName(secret)}</code></>}</For> in the environment Tooldesk starts from.
        </p>
      </Show>
    </div>
  );
}

function MissingSecret(props: { server: string; secret: string }) {
  const app = useApp();
  const [value, setValue] = createSignal('');
  const save = async (event: Event) => {
    event.preventDefault();
    if (!value()) return;
    const done = await app.guard(() => app.api.setSecret({ name: props.secret, value: value() }));
    if (done !== undefined) setValue('');
  };
  const id = () => `secret-missing-${props.server}-${props.secret}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <form class="stack small" onSubmit={(e) => void save(e)} data-testid="mcp-secret-missing-item" data-secret={props.secret}>
      <p class="warn-text">
        Secret missing: <code>{props.secret}</code> was not stored when “{props.server}” was imported. Enter it here, or run <code>tooldesk secrets set {props.secret}</code>; then switch the server on.
      </p>
      <div class="row">
        <label class="sr-only" for={id()}>
          Value of {props.secret}
        </label>
        <input id={id()} type="password" class="grow" autocomplete="off" value={value()} onInput={(e) => setValue(e.currentTarget.value)} placeholder={props.secret} />
        <button type="submit" class="small" disabled={!value()}>
          Save to keychain
        </button>
      </div>
    </form>
  );
}
