import { For, Show, createSignal } from 'solid-js';
import { EXECUTION_POLICIES, RESULT_APPROVAL_POLICIES, type ToolInfo, type ToolPermission } from '../../../shared/tools.ts';
import { useApp } from '../store/app-context.tsx';
import { Switch } from './switch.tsx';
import { useSettings } from './use-settings.ts';
import { ValvesForm, hasValves } from './valves-form.tsx';

/** Tool groups and tools: enable toggles (persisted) and per-tool policy overrides. */
export function GroupsSection() {
  const app = useApp();
  const { settings, save } = useSettings();
  const [expanded, setExpanded] = createSignal<Record<string, boolean>>({});
  const [valvesOpen, setValvesOpen] = createSignal<Record<string, boolean>>({});

  const setGroup = async (group: string, enabled: boolean) => {
    const tools = await app.guard(() => app.api.setGroupEnabled({ group, enabled }));
    if (tools) app.apply({ type: 'tools.changed', tools });
  };
  const setTool = async (tool: string, enabled: boolean) => {
    const tools = await app.guard(() => app.api.setToolEnabled({ tool, enabled }));
    if (tools) app.apply({ type: 'tools.changed', tools });
  };
  const override = (tool: string): ToolPermission => settings()?.permissionOverrides[tool] ?? {};
  const setOverride = (tool: string, patch: ToolPermission) => {
    const next = { ...override(tool), ...patch };
    for (const key of Object.keys(next) as (keyof ToolPermission)[]) if (!next[key]) delete next[key];
    const all = { ...(settings()?.permissionOverrides ?? {}) };
    if (Object.keys(next).length) all[tool] = next;
    else delete all[tool];
    void save({ permissionOverrides: all });
  };

  return (
    <section class="settings-section" aria-labelledby="groups-title" data-testid="groups-section">
      <h3 id="groups-title">Tool groups</h3>
      <p class="muted small">A disabled group's tools are neither offered to the model nor runnable. New groups start disabled.</p>
      <ul class="group-list">
        <For each={app.state.tools.groups} fallback={<li class="muted small">No tools loaded.</li>}>
          {(group) => (
            <li class="group-item card" data-testid="group-item" data-group={group.name}>
              <div class="row">
                <Switch checked={group.enabled} label={`Enable group ${group.name}`} onChange={(on) => void setGroup(group.name, on)} testId={`group-toggle-${group.name}`} />
                <strong class="grow">
                  {group.name}
                  <span class="muted small">
                    {' '}
                    · {group.tools.length} tool{group.tools.length === 1 ? '' : 's'}
                    {group.builtin ? ' · built-in' : ''}
                  </span>
                </strong>
                <button type="button" class="link small" aria-expanded={!!expanded()[group.name]} onClick={() => setExpanded({ ...expanded(), [group.name]: !expanded()[group.name] })}>
                  {expanded()[group.name] ? 'Hide tools' : 'Tools & policies'}
                </button>
                <Show when={hasValves(group)}>
                  <button type="button" class="link small" aria-expanded={!!valvesOpen()[group.name]} onClick={() => setValvesOpen({ ...valvesOpen(), [group.name]: !valvesOpen()[group.name] })}>
                    Valves
                  </button>
                </Show>
              </div>
              <Show when={valvesOpen()[group.name]}>
                <ValvesForm group={group.name} />
              </Show>
              <Show when={expanded()[group.name]}>
                <ul class="policy-list">
                  <For each={group.tools}>
                    {(tool: ToolInfo) => (
                      <li class="policy-row">
                        <Switch checked={tool.enabled} disabled={!group.enabled} label={`Enable tool ${tool.name}`} onChange={(on) => void setTool(tool.name, on)} />
                        <code class="policy-tool" title={tool.description}>
                          {tool.name}
                        </code>
                        <PolicySelect
                          short="run"
                          label={`Execution policy for ${tool.name}`}
                          options={EXECUTION_POLICIES}
                          fallback={tool.permission.executionPolicy}
                          value={override(tool.name).executionPolicy}
                          onChange={(executionPolicy) => setOverride(tool.name, { executionPolicy })}
                        />
                        <PolicySelect
                          short="result"
                          label={`Result approval for ${tool.name}`}
                          options={RESULT_APPROVAL_POLICIES}
                          fallback={tool.permission.resultApprovalPolicy}
                          value={override(tool.name).resultApprovalPolicy}
                          onChange={(resultApprovalPolicy) => setOverride(tool.name, { resultApprovalPolicy })}
                        />
                      </li>
                    )}
                  </For>
                </ul>
              </Show>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}

/** One policy override: the empty choice means "use the tool's own default", named as `fallback` while nothing overrides it. */
function PolicySelect<P extends string>(props: { short: string; label: string; options: readonly P[]; fallback: P; value: P | undefined; onChange: (value: P | undefined) => void }) {
  return (
    <label class="policy-select small">
      <span class="muted">{props.short}</span>
      <select aria-label={props.label} classList={{ overridden: !!props.value }} value={props.value ?? ''} onChange={(e) => props.onChange((e.currentTarget.value || undefined) as P | undefined)}>
        {/* With an override, `fallback` (the effective policy) is the override itself, not the default. */}
        <option value="">{props.value ? "the tool's default" : `${props.fallback} (default)`}</option>
        <For each={props.options}>{(p) => <option value={p}>{p}</option>}</For>
      </select>
    </label>
  );
}
