// The API methods of the user's MCP servers: adding, removing and restarting them, their writable
// folders, importing other apps' configs, and their prompts and resources for a chat (shared/api.ts
// extends ApiMethods with these). A server's on/off switch is its group's (setGroupEnabled).
import type { AttachmentUpload } from './chat.ts';
import type { McpImportPreview, McpListing, McpPromptInfo, McpResourceInfo, McpServerView } from './mcp.ts';

type Empty = Record<string, never>;

export interface McpServersApiMethods {
  listMcpServers: { request: Empty; response: McpServerView[] };
  /** Adds a server: `command` (+ `args`) for a local one over stdio, or `url` for a remote one. Switched off until the user turns it on. */
  addMcpServer: { request: { name: string; command?: string; args?: string[]; url?: string }; response: McpServerView[] };
  removeMcpServer: { request: { name: string }; response: McpServerView[] };
  /** Stops and starts the server again (when its group is on). */
  restartMcpServer: { request: { name: string }; response: McpServerView[] };
  /** "Allow writing to FOLDER for this server": FOLDER joins its writable folders (it restarts). */
  allowMcpWrite: { request: { name: string; folder: string }; response: McpServerView[] };
  /** The switch of a server's row: the folders named in its arguments writable (default) or read-only. */
  setMcpArgFoldersWritable: { request: { name: string; writable: boolean }; response: McpServerView[] };
  /** What an import from Claude Desktop, Cursor, LM Studio and VS Code configs would add; changes nothing. */
  previewMcpImport: { request: Empty; response: McpImportPreview };
  /** Imports the named servers of the preview; their literal secrets go to the keychain first. */
  importMcpServers: { request: { names: string[]; answers?: Record<string, string>; allowSecrets?: string[] }; response: McpServerView[] };
  /** Prompts of the switched-on servers, for the `/` menu (`/server:prompt` with its arguments). */
  listMcpPrompts: { request: Empty; response: McpListing<McpPromptInfo> };
  /** Resources of the switched-on servers ("Attach resource"). */
  listMcpResources: { request: Empty; response: McpListing<McpResourceInfo> };
  /** Reads a resource (resources/read) as an attachment for the next message; up to 2 MB. */
  readMcpResource: { request: { server: string; uri: string }; response: AttachmentUpload };
}

export const MCP_SERVERS_API_METHODS = [
  'listMcpServers',
  'addMcpServer',
  'removeMcpServer',
  'restartMcpServer',
  'allowMcpWrite',
  'setMcpArgFoldersWritable',
  'previewMcpImport',
  'importMcpServers',
  'listMcpPrompts',
  'listMcpResources',
  'readMcpResource',
] as const;
