// The API methods of the tools: listing and switching them, their valves, authoring (create, read,
// update, delete), project-folder trust, and a run by hand (shared/api.ts extends ApiMethods with these).
import type { Diagnostic, ToolExecuteResult, ToolGroupInfo } from './tools.ts';
import type { NewToolFormat } from './new-tool-formats.ts';
import type { GroupValvesView, ValveKind } from './tool-valves.ts';

type Empty = Record<string, never>;

export interface ToolsState {
  groups: ToolGroupInfo[];
  /** Errors first. */
  diagnostics: Diagnostic[];
}

/** The formats the UI can edit (tool authoring); new tools come in every NewToolFormat. */
export type AuthoringFormat = 'script' | 'three-layer';

/** A user tool's files, as the editor shows them. */
export interface ToolFiles {
  format: AuthoringFormat;
  /** The tool's folder name (the registered name may differ: script tools become `script_<name>`). */
  name: string;
  /** Absolute folder path. */
  dir: string;
  /** Relative file name → text content (e.g. definition.json, execution.py, return.json, meta.json). */
  files: Record<string, string>;
  /** Problems found in the files after writing them (the tool may not load). */
  diagnostics?: Diagnostic[];
}

/** What createTool made. */
export interface CreatedTool {
  format: NewToolFormat;
  name: string;
  /** Every file written, absolute. */
  paths: string[];
  /** The names its tools are listed under now (empty when it did not load: see `diagnostics`). */
  tools: string[];
  /** Problems the tools list has about the new tool (e.g. a missing interpreter). */
  diagnostics: Diagnostic[];
  /** Script-folder and three-layer tools: their files, for the editor (other formats are edited in the user's editor). */
  files?: ToolFiles;
}

export interface ToolsApiMethods {
  listTools: { request: Empty; response: ToolsState };
  reloadTools: { request: Empty; response: ToolsState };
  /** Opens your tools folder in the system's file manager (made first when missing); `opened: false` when no opener could start. */
  openToolsFolder: { request: Empty; response: { path: string; opened: boolean } };
  /** Opens a user docs page (`page`: its path under docs/, e.g. "mcp/servers.md") with the system; `opened: false` when no opener could start. */
  openDocs: { request: { page: string }; response: { path: string; opened: boolean } };
  /** Persists the group's enable state (settings.groupDefaults) and applies it to every session. */
  setGroupEnabled: { request: { group: string; enabled: boolean }; response: ToolsState };
  /** Persists the tool's enable state (settings.toolDefaults) and applies it to every session. */
  setToolEnabled: { request: { tool: string; enabled: boolean }; response: ToolsState };
  /** An Open WebUI group's Valves/UserValves; set: KEY → text as typed ('' = the default), checked by type, secrets to the keychain. */
  getToolValves: { request: { group: string }; response: GroupValvesView };
  setToolValves: { request: { group: string; kind: ValveKind; values: Record<string, string> }; response: GroupValvesView };
  /** Creates a tool from its format's template in the first tools folder and loads it (its group on unless you switched it off); `files` overrides template files (script and three-layer tools). */
  createTool: { request: { format: NewToolFormat; name: string; files?: Record<string, string> }; response: CreatedTool };
  /** `name` is the registered tool name or the folder name. */
  readTool: { request: { name: string }; response: ToolFiles };
  updateTool: { request: { name: string; files: Record<string, string> }; response: ToolFiles };
  deleteTool: { request: { name: string }; response: null };
  /**
   * Approves (or withdraws approval of) a project tool folder, remembered by path in
   * settings.trustedProjectFolders. Approving needs the folder to be listed as untrusted now
   * (a diagnostic with code UNTRUSTED_FOLDER_CODE). Resolves once the tools are reloaded.
   */
  trustToolFolder: { request: { path: string; trusted: boolean }; response: ToolsState };
  /** Runs a tool by hand through the session's executor (same approvals, variables, $VAR_REF). */
  runTool: { request: { sessionId: string; name: string; args: Record<string, unknown> }; response: ToolExecuteResult };
}

export const TOOLS_API_METHODS = [
  'listTools',
  'reloadTools',
  'openToolsFolder',
  'openDocs',
  'setGroupEnabled',
  'setToolEnabled',
  'getToolValves',
  'setToolValves',
  'createTool',
  'readTool',
  'updateTool',
  'deleteTool',
  'trustToolFolder',
  'runTool',
] as const;
