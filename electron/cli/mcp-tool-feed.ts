// The tools `tooldesk mcp serve` offers, from the one composition root: watched settings (so
// toggles made in the app apply), roots (`--root` as in `tools list`), every tool source with hot
// reload, secrets for tool processes (and Agenvoy's key endpoint).
import type { Diagnostic } from '../../shared/tools.ts';
import type { McpToolFeed } from '../runtime/host/mcp-server/tool-feed.ts';
import { servedSkills } from '../runtime/host/mcp-server/serve-skills.ts';
import type { McpInteractions } from '../runtime/host/mcp-client.ts';
import type { SecretStore } from '../runtime/store/secret-store.ts';
import { openCliRuntime } from './cli-runtime.ts';
import type { CliIO } from './command.ts';
import type { ParsedArgs } from './parse-args.ts';

export interface OpenedToolFeed {
  feed: McpToolFeed;
  home: string;
  secrets: SecretStore;
  roots: string[];
  diagnostics(): Diagnostic[];
  close(): Promise<void>;
}

/** `interactions`: where a running tool's questions go (the client of the call that asked). */
export async function openMcpToolFeed(args: ParsedArgs, io: CliIO, onlyGroups: string[], log: (message: string) => void, toolSet?: string, interactions?: McpInteractions): Promise<OpenedToolFeed> {
  const runtime = await openCliRuntime(io, { watchSettings: true, log, tools: { args, watch: true, keyEndpoint: true, ...(interactions ? { mcpInteractions: interactions } : {}) } });
  const tools = await runtime.tools();
  const { settings } = runtime;
  const served = await servedSkills(tools.skills, () => settings.get(), log);
  return {
    feed: {
      toolSession: tools.session,
      settings: () => settings.get(),
      onlyGroups,
      ...(toolSet ? { toolSet } : {}),
      skills: served.catalog,
    },
    home: runtime.home,
    secrets: runtime.secrets,
    roots: tools.roots().map((r) => r.path),
    diagnostics: () => tools.source.diagnostics(),
    close: () => {
      served.close();
      return runtime.close();
    },
  };
}
