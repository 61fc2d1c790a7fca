import { Show } from 'solid-js';
import type { McpServerView } from '../../../../shared/mcp.ts';
import { Switch } from '../switch.tsx';

/**
 * A server's folders in its Settings row: its roots, what it may write, the switch for the folders
 * its arguments name, and "Allow writing to FOLDER" after a write the sandbox refused.
 */
export function McpServerFolders(props: { server: McpServerView; onAllowWrite: (folder: string) => void; onArgFoldersWritable: (writable: boolean) => void }) {
  const s = () => props.server;
  return (
    <div class="stack small" data-testid="mcp-folders">
      <Show when={s().transport === 'stdio' || (s().roots ?? []).length > 0}>
        <p class="muted small" data-testid="mcp-roots">
          Roots: {(s().roots ?? []).length ? s().roots!.join(', ') : 'none (the server keeps the folders of its own configuration)'}
        </p>
      </Show>
      <Show when={(s().writable ?? []).length > 0}>
        <p class="muted small" data-testid="mcp-writable">
          Writes to: {s().writable!.join(', ')}
        </p>
      </Show>
      <Show when={s().argFolders}>
        {(arg) => (
          <div class="row small">
            <Switch checked={arg().writable} label={`Let ${s().name} write to the folders in its arguments`} onChange={props.onArgFoldersWritable} testId={`mcp-argfolders-${s().name}`} />
            <span class="muted">Folders in its arguments writable{arg().folders.length ? `: ${arg().folders.join(', ')}` : ''}</span>
          </div>
        )}
      </Show>
      <Show when={s().writeRefusal}>
        {(refusal) => (
          <div class="row small" data-testid="mcp-write-refusal">
            <span class="grow error">The sandbox kept it from writing {refusal().path}.</span>
            <button type="button" class="small" onClick={() => props.onAllowWrite(refusal().folder)} data-testid="mcp-allow-write">
              Allow writing to {refusal().folder}
            </button>
          </div>
        )}
      </Show>
    </div>
  );
}
