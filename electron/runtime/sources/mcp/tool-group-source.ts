// The MCP manager as one of the runtime's tool sources: its change signal carries no detail, so
// each change is announced as the difference between the groups before and after it (a change
// that touches neither the groups nor the diagnostics is not announced).
import { diffGroups, type ToolGroupSource } from '../../tools/tools-change.ts';
import type { McpManager } from './mcp-manager.ts';

export function mcpToolGroupSource(manager: McpManager): ToolGroupSource {
  let last = manager.groups();
  let lastDiagnostics = JSON.stringify(manager.diagnostics());
  return {
    groups: () => manager.groups(),
    diagnostics: () => manager.diagnostics(),
    onChanged(listener) {
      return manager.onChanged(() => {
        const now = manager.groups();
        const diagnostics = manager.diagnostics();
        const change = diffGroups(last, now, diagnostics);
        const diagnosticsJson = JSON.stringify(diagnostics);
        const quiet = change.added.length + change.removed.length + change.updated.length === 0 && diagnosticsJson === lastDiagnostics;
        last = now;
        lastDiagnostics = diagnosticsJson;
        if (!quiet) listener(change);
      });
    },
    close: () => manager.close(),
  };
}
