// Shared by the `tooldesk tools` sub-commands: which roots, the source context from settings,
// and the loaded tools registered in a real ToolExecutor (so policies are the effective ones).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Diagnostic } from '../../shared/tools.ts';
import type { Settings } from '../../shared/settings.ts';
import type { KeyEndpoint } from '../runtime/runner/key-endpoint.ts';
import { startKeyEndpoint } from '../runtime/runner/key-endpoint.ts';
import { secretResolverFrom } from '../runtime/runner/secret-resolver.ts';
import { discoverTools } from '../runtime/sources/discovery/discover-tools.ts';
import { createSourceContext } from '../runtime/sources/source-context.ts';
import { keychainCredentialStore, McpManager, mcpDeps, type McpInteractions } from '../runtime/sources/mcp/index.ts';
import { openInBrowser } from './serve/open-browser.ts';
import type { ToolRoot } from '../runtime/sources/discovery/tool-roots.ts';
import { toolRootsFromSettings } from '../runtime/sources/discovery/tool-roots.ts';
import type { LoadResult } from '../runtime/sources/types.ts';
import { settingsPermissionStore } from '../runtime/store/permission-store.ts';
import { SecretStore } from '../runtime/store/secret-store.ts';
import type { SettingsStore } from '../runtime/store/settings-store.ts';
import { ToolExecutor } from '../runtime/tools/tool-executor.ts';
import type { ApprovalCallback } from '../runtime/tools/types.ts';
import { openCliSettings } from './cli-settings.ts';
import type { CliIO } from './command.ts';
import type { ParsedArgs } from './parse-args.ts';
import { options } from './parse-args.ts';

export interface LoadedTools extends LoadResult {
  roots: string[];
  home: string;
  settings: SettingsStore;
  executor: ToolExecutor;
  /** Loading diagnostics plus registration problems (name clashes with built-ins …). */
  allDiagnostics: Diagnostic[];
  /** Stops what loading started (the secrets key endpoint of `tools run`). */
  close(): Promise<void>;
}

export interface LoadCliToolsOptions {
  approve?: ApprovalCallback;
  /** Serve secrets to script tools that fetch them (Agenvoy's key endpoint): `tools run` only. */
  keyEndpoint?: boolean;
  /** MCP servers' elicitation requests (asked on the terminal by `tools run`). */
  interactions?: McpInteractions;
}

/** `--root DIR` (repeatable, relative to the cwd), else the settings' roots and the well-known folders that exist. */
export function toolRoots(args: ParsedArgs, settings: Settings, home: string): ToolRoot[] {
  const given = options(args, 'root');
  if (given.length > 0) return given.map((root) => ({ path: resolve(root), kind: 'user' }));
  return toolRootsFromSettings(settings, { home, cwd: process.cwd(), exists: existsSync });
}

/** Loads every tool under `roots` once (no watching); tool secrets come from `secrets`. */
export function discoverCliTools(home: string, settings: Settings, roots: ToolRoot[], secrets: SecretStore, keyEndpoint?: KeyEndpoint): Promise<LoadResult> {
  const ctx = createSourceContext(settings, home, {
    runnerOptions: { resolveSecrets: secretResolverFrom(secrets), ...(keyEndpoint ? { keyEndpoint } : {}) },
  });
  return discoverTools(roots, ctx);
}

export async function loadCliTools(args: ParsedArgs, io: CliIO, load: LoadCliToolsOptions = {}): Promise<LoadedTools> {
  const { home, settings } = openCliSettings(io);
  const current = settings.get();
  const roots = toolRoots(args, current, home);
  let keyEndpoint: KeyEndpoint | undefined;
  if (load.keyEndpoint) keyEndpoint = await startKeyEndpoint({ agenvoyCompat: current.agenvoyKeyCompat }).catch(() => undefined);
  const secrets = new SecretStore();
  const loaded = await discoverCliTools(home, current, roots, secrets, keyEndpoint);
  // MCP servers (issue 12): every enabled one is started so its tools can be listed and run.
  const mcp = new McpManager(mcpDeps(current, { resolveSecrets: secretResolverFrom(secrets), home, credentials: keychainCredentialStore(secrets), openBrowser: (url) => openInBrowser(url), ...(load.interactions ? { interactions: load.interactions } : {}) }));
  await mcp.configure(current.mcpServers, current.groupDefaults);
  await mcp.startAll();
  await mcp.settle();
  loaded.groups.push(...mcp.groups());
  loaded.diagnostics.push(...mcp.diagnostics());
  const executor = new ToolExecutor({
    sessionId: 'cli',
    permissions: settingsPermissionStore(settings),
    truncateChars: current.limits.truncateChars,
    toolTimeoutMs: current.limits.toolTimeoutMs,
    ...(load.approve ? { approve: load.approve } : {}),
  });
  for (const group of loaded.groups) executor.registerToolGroup(group);
  for (const group of executor.listGroups()) {
    if (!group.builtin) executor.toggleGroupEnabled(group.name, current.groupDefaults[group.name] ?? false);
  }
  for (const [name, enabled] of Object.entries(current.toolDefaults)) {
    if (executor.getTool(name)) executor.setToolEnabled(name, enabled);
  }
  return {
    groups: loaded.groups,
    diagnostics: loaded.diagnostics,
    roots: roots.map((r) => r.path),
    home,
    settings,
    executor,
    allDiagnostics: [...loaded.diagnostics, ...executor.diagnostics()],
    async close() {
      await mcp.close();
      await keyEndpoint?.close();
      settings.close();
    },
  };
}

/** `file:line:col: severity: message` and an indented hint, as compilers print them. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = [d.file, d.line, d.line !== undefined ? d.column : undefined].filter((x) => x !== undefined).join(':');
  const head = `${where}: ${d.severity}: ${d.message}${d.code ? ` [${d.code}]` : ''}`;
  return d.hint ? `${head}\n  hint: ${d.hint}` : head;
}
