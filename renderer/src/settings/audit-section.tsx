// Settings → Audit log: the newest decisions on tool calls (who or what allowed or stopped each),
// filtered by tool or MCP server and by decision. Read on demand; `tooldesk audit` prints the same.
import { For, Show, createSignal, onMount } from 'solid-js';
import type { AuditEntry } from '../../../shared/permissions.ts';
import { useApp } from '../store/app-context.tsx';

export function AuditSection() {
  const app = useApp();
  const [entries, setEntries] = createSignal<AuditEntry[]>([]);
  const [tool, setTool] = createSignal('');
  const [decision, setDecision] = createSignal('');
  const load = async () => {
    const found = await app.guard(() =>
      app.api.listAudit({ ...(tool().trim() ? { tool: tool().trim() } : {}), ...(decision() ? { decision: decision() as AuditEntry['decision'] } : {}), limit: 200 }),
    );
    if (found) setEntries([...found].reverse());
  };
  onMount(() => void load());
  return (
    <section class="settings-section" aria-labelledby="audit-title" data-testid="audit-section">
      <h3 id="audit-title">Audit log</h3>
      <div class="row wrap">
        <input aria-label="Filter by tool or server" placeholder="tool or server" value={tool()} onInput={(e) => setTool(e.currentTarget.value)} />
        <select aria-label="Filter by decision" value={decision()} onChange={(e) => setDecision(e.currentTarget.value)}>
          <option value="">Every decision</option>
          <option value="allowed">Allowed</option>
          <option value="denied">Denied</option>
          <option value="rejected">Rejected</option>
        </select>
        <button type="button" onClick={() => void load()}>
          Show
        </button>
      </div>
      <Show when={entries().length > 0} fallback={<p class="small muted">No decisions logged{tool() || decision() ? ' that match' : ''}.</p>}>
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Audit log entries" data-testid="audit-scroll">
        <table class="small audit-table">
          <thead>
            <tr>
              <th>When</th>
              <th>Tool</th>
              <th>Decision</th>
              <th>By</th>
              <th>Level</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            <For each={entries()}>
              {(e) => (
                <tr data-testid="audit-entry">
                  <td>{new Date(e.at).toLocaleString()}</td>
                  <td>
                    <code>{e.tool}</code>
                  </td>
                  <td>{e.decision}</td>
                  <td>{e.detail ?? e.by}</td>
                  <td>{e.level}</td>
                  <td>{e.status ?? ''}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
        </div>
      </Show>
    </section>
  );
}
