// Puts the MCP servers' groups beside the tool registry's in one group source, so sessions, the
// Tools panel and the CLI see MCP tools through the same registry port as every other tool.
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { ToolGroup } from '../../tools/types.ts';
import type { McpGroupSource } from './mcp-manager.ts';

interface GroupPort {
  groups(): ToolGroup[];
  diagnostics(): Diagnostic[];
  onChanged(listener: () => void): () => void;
}

export function withMcpGroups<T extends GroupPort>(registry: T, mcp: McpGroupSource): T {
  return {
    ...registry,
    groups: () => [...registry.groups(), ...mcp.groups()],
    diagnostics: () => [...registry.diagnostics(), ...mcp.diagnostics()],
    onChanged: (listener: () => void) => {
      const offs = [registry.onChanged(() => listener()), mcp.onChanged(() => listener())];
      return () => offs.forEach((off) => off());
    },
  };
}
