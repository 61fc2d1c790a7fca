// `tooldesk tools list`: every tool with its group, format, source file, policies and schema.
import { UNTRUSTED_FOLDER_CODE, type ToolGroupInfo } from '../../../shared/tools.ts';
import type { Command } from '../command.ts';
import { parseArgs } from '../parse-args.ts';
import { flag } from '../parse-args.ts';
import { loadCliTools } from '../tools-load.ts';

export const toolsListCommand: Command = {
  name: 'list',
  summary: 'List every tool: group, format, source file, policies and schema',
  usage: [
    'Usage: tooldesk tools list [--root DIR]... [--json] [--all]',
    '',
    'Loads the tools under each --root (default: the roots in settings, else TOOLDESK_HOME/tools).',
    '  --json   print the groups and tools as JSON (schemas included)',
    '  --all    include the built-in groups (vars)',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['root'], booleans: ['json', 'all'] });
    const loaded = await loadCliTools(args, io);
    await loaded.close();
    const groups = loaded.session.listGroups().filter((g) => flag(args, 'all') || !g.builtin);
    if (flag(args, 'json')) {
      io.stdout.write(`${JSON.stringify({ roots: loaded.roots, groups, diagnostics: loaded.allDiagnostics }, null, 2)}\n`);
      return 0;
    }
    io.stdout.write(renderGroups(groups, loaded.roots, new Set(Object.keys(loaded.settings.get().mcpServers ?? {}))));
    // Said on stdout, beside the list: a folder that loaded nothing is part of the answer.
    for (const d of loaded.allDiagnostics.filter((x) => x.code === UNTRUSTED_FOLDER_CODE)) {
      io.stdout.write(`untrusted project folder — review: ${d.file}\n  none of its tools is loaded; approve it with \`tooldesk tools trust ${d.file}\`\n`);
    }
    const errors = loaded.allDiagnostics.filter((d) => d.severity === 'error').length;
    if (loaded.allDiagnostics.length > 0) {
      io.stderr.write(`${loaded.allDiagnostics.length} diagnostic(s), ${errors} error(s): run \`tooldesk tools check\` for details.\n`);
    }
    return 0;
  },
};

/** How a switched-off MCP server's group is headed: it was not started, and what is shown instead. */
function offNote(group: ToolGroupInfo, mcpServers: Set<string>): string | undefined {
  const mcp = group.tools[0]?.meta?.mcp as { switchedOff?: boolean; listedAt?: string } | undefined;
  if (mcp?.switchedOff) return `switched off, not started; its tools as last listed${mcp.listedAt ? ` ${mcp.listedAt.slice(0, 16).replace('T', ' ')} UTC` : ''}`;
  if (group.tools.length === 0 && mcpServers.has(group.name) && !group.enabled) return 'switched off, not started; no tools known yet (it has not run)';
  return undefined;
}

function renderGroups(groups: ToolGroupInfo[], roots: string[], mcpServers: Set<string>): string {
  if (groups.length === 0) return `No tools found in ${roots.join(', ')}\n`;
  const lines: string[] = [];
  for (const group of groups) {
    const first = group.tools[0];
    const where = first?.source ? ` — ${first.format}, ${first.source.file}` : '';
    const off = offNote(group, mcpServers);
    lines.push(`${group.name} (${off ?? (group.enabled ? 'enabled' : 'disabled')})${where}`);
    for (const tool of group.tools) {
      const { executionPolicy, resultApprovalPolicy } = tool.permission;
      const alias = tool.modelName !== tool.name ? ` (model sees ${tool.modelName})` : '';
      lines.push(`  ${tool.name}${alias}  [run: ${executionPolicy}, result: ${resultApprovalPolicy}]${tool.enabled ? '' : ' (tool disabled)'}`);
      const summary = tool.description.split('\n')[0];
      if (summary) lines.push(`    ${summary}`);
      const schema = tool.parameters as { properties?: Record<string, { type?: unknown; enum?: unknown[] }>; required?: string[] };
      const params = Object.entries(schema.properties ?? {}).map(([name, p]) => {
        const type = Array.isArray(p?.enum) ? p.enum.map((v) => JSON.stringify(v)).join('|') : Array.isArray(p?.type) ? p.type.join('|') : (p?.type ?? 'any');
        return `${name}${schema.required?.includes(name) ? '' : '?'}: ${String(type)}`;
      });
      if (params.length) lines.push(`    (${params.join(', ')})`);
      if (tool.source?.line) lines.push(`    ${tool.source.file}:${tool.source.line}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
