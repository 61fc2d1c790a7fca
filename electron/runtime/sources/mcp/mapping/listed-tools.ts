// A server's tool list as it arrives (at start and on `list_changed`): bounded, remembered for
// when the server is off, and checked against what the user accepted (description snapshot) and
// configured (`toolTimeouts`); each problem is a warning on the server's settings entry.
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import type { Diagnostic } from '../../../../../shared/tools.ts';
import { boundTools } from './bound-tools.ts';
import { changedDescriptions, descriptionSnapshotFile } from './description-watch.ts';
import { knownToolsFile, rememberTools } from './known-tools.ts';
import { serverFile, type McpServer } from '../config/server-config.ts';
import type { McpClientDeps } from '../types.ts';

/** `wanted`: the server's group is on, so a changed description is news to the user. */
export function checkListedTools(tools: McpTool[], server: McpServer, deps: McpClientDeps, wanted: boolean): { tools: McpTool[]; diagnostics: Diagnostic[] } {
  const name = server.name;
  const bounded = boundTools(tools, {
    maxTools: deps.maxTools ?? 1000,
    maxSchemaBytes: deps.maxSchemaBytes ?? 256 * 1024,
  });
  if (deps.stateDir) rememberTools(knownToolsFile(deps.stateDir, name), bounded.tools);
  const problems = [...bounded.problems];
  if (deps.stateDir && wanted) {
    for (const tool of changedDescriptions(descriptionSnapshotFile(deps.stateDir, name), bounded.tools)) {
      problems.push(`tool "${tool}": its description or schema changed since you enabled "${name}"; read it in the Tools panel, then enable the server again (tooldesk mcp enable ${name}) to accept it`);
    }
  }
  for (const tool of Object.keys(server.toolTimeouts)) {
    if (!bounded.tools.some((t) => t.name === tool)) problems.push(`"toolTimeouts" names "${tool}", which the server does not list (its tools: ${bounded.tools.slice(0, 20).map((t) => t.name).join(', ') || 'none'})`);
  }
  return { tools: bounded.tools, diagnostics: problems.map((message) => ({ severity: 'warning', file: serverFile(name), message, code: 'mcp-tools' })) };
}
