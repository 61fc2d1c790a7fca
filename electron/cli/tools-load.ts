// Shared by the `tooldesk tools` sub-commands: the runtime's tools, loaded once (no watching),
// in a ToolSession opened by the runtime (so policies and switches are the effective ones).
import type { Diagnostic } from '../../shared/tools.ts';
import type { ToolGroup } from '../runtime/tools/types.ts';
import type { Runtime, RuntimeToolOptions } from '../runtime/create-runtime.ts';
import type { McpInteractions } from '../runtime/host/mcp-client.ts';
import { openInBrowser } from './serve/open-browser.ts';
import type { SettingsStore } from '../runtime/store/settings-store.ts';
import type { ToolSession } from '../runtime/tools/tool-session.ts';
import type { ApprovalCallback } from '../runtime/tools/types.ts';
import { openCliRuntime } from './cli-runtime.ts';
import type { CliIO } from './command.ts';
import type { ParsedArgs } from './parse-args.ts';

export interface LoadedTools {
  runtime: Runtime;
  groups: ToolGroup[];
  /** Loading diagnostics only. */
  diagnostics: Diagnostic[];
  roots: string[];
  home: string;
  settings: SettingsStore;
  /** The CLI's conversation with the tools: every query and the one call of `tools run`. */
  session: ToolSession;
  /** Loading diagnostics plus registration problems (name clashes with built-ins …). */
  allDiagnostics: Diagnostic[];
  /** Stops what loading started (the secrets key endpoint of `tools run`). */
  close(): Promise<void>;
}

export interface LoadCliToolsOptions {
  approve?: ApprovalCallback;
  /** Serve secrets to script tools that fetch them (Agenvoy's key endpoint): `tools run` only. */
  keyEndpoint?: boolean;
  /** MCP servers' elicitation and sampling requests (asked on the terminal by `tools run`). */
  interactions?: McpInteractions;
  /** Which MCP servers start (default `start-all`: every switched-on one, for listings and checks). */
  mcp?: RuntimeToolOptions['mcp'];
}

/** Loads every tool under `--root DIR`s (else the settings' roots and the well-known folders that exist) once. */
export async function loadCliTools(args: ParsedArgs, io: CliIO, load: LoadCliToolsOptions = {}): Promise<LoadedTools> {
  // Every switched-on MCP server is started, so its tools can be listed and checked (`tools run`
  // starts only the one its tool needs).
  const runtime = await openCliRuntime(io, {
    tools: { args, keyEndpoint: load.keyEndpoint ?? false, mcp: load.mcp ?? 'start-all', openUrl: openInBrowser, ...(load.interactions ? { mcpInteractions: load.interactions } : {}) },
  });
  try {
    const tools = await runtime.tools();
    const session = await runtime.toolSession({ sessionId: 'cli', ...(load.approve ? { approve: load.approve } : {}) });
    const diagnostics = tools.source.diagnostics();
    return {
      runtime,
      groups: tools.source.groups(),
      diagnostics,
      roots: tools.roots().map((r) => r.path),
      home: runtime.home,
      settings: runtime.settings,
      session,
      allDiagnostics: [...diagnostics, ...session.diagnostics()],
      close: () => runtime.close(),
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** `file:line:col: severity: message` and an indented hint, as compilers print them. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = [d.file, d.line, d.line !== undefined ? d.column : undefined].filter((x) => x !== undefined).join(':');
  const head = `${where}: ${d.severity}: ${d.message}${d.code ? ` [${d.code}]` : ''}`;
  return d.hint ? `${head}\n  hint: ${d.hint}` : head;
}
