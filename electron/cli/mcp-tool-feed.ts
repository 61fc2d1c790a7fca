// The tools `tooldesk mcp serve` offers, loaded and watched once for the whole process: settings
// (watched, so toggles made in the app apply), roots (`--root` as in `tools list`), the registry
// with hot reload, secrets for tool processes. The one place to switch to createRuntime.
import type { Diagnostic } from '../../shared/tools.ts';
import type { McpToolFeed } from '../runtime/host/mcp-server/tool-feed.ts';
import { toolDeskHome } from '../runtime/paths.ts';
import { startKeyEndpoint, type KeyEndpoint } from '../runtime/runner/key-endpoint.ts';
import { secretResolverFrom } from '../runtime/runner/secret-resolver.ts';
import { ToolRegistry } from '../runtime/sources/discovery/tool-registry.ts';
import { createSourceContext } from '../runtime/sources/source-context.ts';
import { settingsPermissionStore } from '../runtime/store/permission-store.ts';
import { SecretStore } from '../runtime/store/secret-store.ts';
import { openSettingsStore } from '../runtime/store/settings-store.ts';
import { secretStoreOptions } from './cli-settings.ts';
import type { CliIO } from './command.ts';
import type { ParsedArgs } from './parse-args.ts';
import { toolRoots } from './tools-load.ts';

export interface OpenedToolFeed {
  feed: McpToolFeed;
  home: string;
  secrets: SecretStore;
  roots: string[];
  diagnostics(): Diagnostic[];
  close(): Promise<void>;
}

export async function openMcpToolFeed(args: ParsedArgs, io: CliIO, onlyGroups: string[], log: (message: string) => void): Promise<OpenedToolFeed> {
  const home = toolDeskHome(io.env);
  const settings = openSettingsStore(home, { watch: true });
  for (const warning of settings.warnings) log(`warning: ${warning}`);
  const secrets = new SecretStore(secretStoreOptions(io));
  const roots = toolRoots(args, settings.get(), home);
  const keyEndpoint: KeyEndpoint | undefined = await startKeyEndpoint({ agenvoyCompat: settings.get().agenvoyKeyCompat }).catch(() => undefined);
  const resolveSecrets = secretResolverFrom(secrets);
  const registry = new ToolRegistry({
    roots,
    context: () => createSourceContext(settings.get(), home, { runnerOptions: { resolveSecrets, ...(keyEndpoint ? { keyEndpoint } : {}) } }),
    log,
  });
  await registry.load();
  registry.watch();
  return {
    feed: {
      groups: () => registry.groups(),
      onToolsChanged: (listener) => registry.onChanged((event) => listener(event)),
      settings: () => settings.get(),
      onSettingsChanged: (listener) => settings.onDidChange((next) => listener(next)),
      permissions: settingsPermissionStore(settings),
      onlyGroups,
    },
    home,
    secrets,
    roots: roots.map((r) => r.path),
    diagnostics: () => registry.diagnostics(),
    async close() {
      registry.close();
      await keyEndpoint?.close();
      settings.close();
    },
  };
}
