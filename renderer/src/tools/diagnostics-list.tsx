import { For, Show } from 'solid-js';
import type { Diagnostic } from '../../../shared/tools.ts';
import { diagnosticDocs } from '../../../shared/docs-pages.ts';
import { HelpLink } from '../ui/help-link.tsx';

const RANK = { error: 0, warning: 1, info: 2 } as const;

export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
}

export function location(d: Diagnostic): string {
  return `${d.file}${d.line !== undefined ? `:${d.line}` : ''}${d.column !== undefined ? `:${d.column}` : ''}`;
}

/** Problems found in the user's tools: errors first, each with file:line and what to do. */
export function DiagnosticsList(props: { diagnostics: readonly Diagnostic[] }) {
  return (
    <Show when={props.diagnostics.length > 0}>
      <ul class="diagnostics" data-testid="diagnostics">
        <For each={sortDiagnostics(props.diagnostics)}>
          {(d) => (
            <li class={`diagnostic ${d.severity}`}>
              <span class={`badge ${d.severity === 'error' ? 'err' : d.severity === 'warning' ? 'warn' : ''}`}>{d.severity}</span>{' '}
              <code class="small">{location(d)}</code>
              <div>{d.message}</div>
              <div class="muted small">
                <Show when={d.hint}>→ {d.hint} </Show>
                <HelpLink page={diagnosticDocs(d)} topic={`how to fix ${location(d)}`} text="How to fix" />
              </div>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}
