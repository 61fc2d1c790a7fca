import { For, Show, createResource } from 'solid-js';
import type { Limits, SandboxMode } from '../../../shared/settings.ts';
import { useApp } from '../store/app-context.tsx';
import { Switch } from './switch.tsx';
import { toolFolderRows } from './tool-folder-rows.ts';
import { useSettings } from './use-settings.ts';

const LIMITS: { key: keyof Limits; label: string }[] = [
  { key: 'toolTimeoutMs', label: 'Tool timeout (ms)' },
  { key: 'truncateChars', label: 'Truncate output sent to the model (characters)' },
  { key: 'outputCapBytes', label: 'Cap on tool stdout/stderr (bytes)' },
  { key: 'maxSteps', label: 'Agent steps per turn' },
  { key: 'variableMaxEntries', label: 'Variables kept per session' },
  { key: 'variableMaxBytes', label: 'Variable storage per session (bytes)' },
  { key: 'maxProcesses', label: 'Processes in the sandbox' },
  { key: 'maxMemoryBytes', label: 'Memory per tool process (bytes)' },
  { key: 'toolSourceMaxBytes', label: 'Largest tool source file read (bytes)' },
  { key: 'mcpStartTimeoutMs', label: 'MCP server start, spawn to tool list (ms)' },
];

/** Tool roots, the other projects' folders, sandbox mode, limits, Python path. */
export function RuntimeSection() {
  const app = useApp();
  const { settings, save } = useSettings();
  const [info] = createResource(() => app.api.appInfo().catch(() => null));

  return (
    <>
      <section class="settings-section" aria-labelledby="roots-title">
        <h3 id="roots-title">Tool folders</h3>
        <label>
          Tool roots, one per line (empty = the default <code>tools</code> folder{info()?.home ? ` in ${info()!.home}` : ''})
          <textarea
            class="mono"
            rows={3}
            value={(settings()?.toolRoots ?? []).join('\n')}
            onChange={(e) => void save({ toolRoots: e.currentTarget.value.split('\n').map((l) => l.trim()).filter(Boolean) })}
          />
        </label>
        <div class="stack">
          <For each={toolFolderRows(info()?.wellKnownFolders)}>
            {(row) => (
              <div class="row" data-testid="tool-folder" data-kinds={row.keys.join(' ')}>
                <Switch
                  checked={settings()?.wellKnownRoots[row.keys[0]!] ?? false}
                  label={`Scan ${row.label}`}
                  onChange={(on) => void save({ wellKnownRoots: { ...settings()!.wellKnownRoots, ...Object.fromEntries(row.keys.map((k) => [k, on])) } })}
                />
                <span>
                  {row.label}
                  <Show when={row.note}>
                    <span class="muted small"> ({row.note})</span>
                  </Show>
                </span>
                <code class="muted small" title={row.path}>
                  {row.path}
                </code>
              </div>
            )}
          </For>
        </div>
        <p class="muted small">Project folders load only once you approve them (Tools panel → Trust this folder).</p>
        <Show when={(settings()?.trustedProjectFolders ?? []).length > 0}>
          <div class="stack" data-testid="trusted-folders">
            <strong class="small">Approved project folders</strong>
            <For each={settings()?.trustedProjectFolders ?? []}>
              {(path) => (
                <div class="row" data-testid="trusted-folder" data-path={path}>
                  <code class="small grow">{path}</code>
                  <button type="button" onClick={() => void app.guard(() => app.api.trustToolFolder({ path, trusted: false }))}>
                    Revoke
                  </button>
                </div>
              )}
            </For>
          </div>
        </Show>
      </section>

      <section class="settings-section" aria-labelledby="sandbox-title">
        <h3 id="sandbox-title">Sandbox</h3>
        <div class="row">
          <select
            aria-label="Sandbox mode"
            value={settings()?.sandbox.mode ?? 'auto'}
            onChange={(e) => void save({ sandbox: { ...settings()!.sandbox, mode: e.currentTarget.value as SandboxMode } })}
          >
            <option value="auto">auto — use it when available</option>
            <option value="required">required — refuse to run without it</option>
            <option value="off">off</option>
          </select>
          <Show when={info()}>
            <span class={`badge ${info()!.sandbox.available ? 'ok' : 'warn'}`}>{info()!.sandbox.available ? 'available' : 'not available'}</span>
          </Show>
        </div>
        <Show when={info()?.sandbox.detail}>
          <p class="muted small">{info()!.sandbox.detail}</p>
        </Show>
      </section>

      <section class="settings-section" aria-labelledby="limits-title">
        <h3 id="limits-title">Limits</h3>
        <div class="limits-grid">
          <For each={LIMITS}>
            {(limit) => (
              <label>
                <span class="small">{limit.label}</span>
                <input
                  type="number"
                  min="0"
                  value={settings()?.limits[limit.key] ?? ''}
                  onChange={(e) => {
                    const n = Number(e.currentTarget.value);
                    if (Number.isFinite(n) && n >= 0) void save({ limits: { ...settings()!.limits, [limit.key]: n } });
                  }}
                />
              </label>
            )}
          </For>
        </div>
      </section>

      <section class="settings-section" aria-labelledby="python-title">
        <h3 id="python-title">Python</h3>
        <label>
          Interpreter <span class="muted small">(empty = python3 on PATH)</span>
          <input
            type="text"
            class="mono"
            value={settings()?.pythonPath ?? ''}
            placeholder="/usr/bin/python3"
            onChange={(e) => void save({ pythonPath: e.currentTarget.value.trim() || null })}
          />
        </label>
      </section>
    </>
  );
}
