// Installing MCP servers in one step from Settings (issue #22): a `.mcpb` bundle the user picks or
// drops on the window, or a server found in an MCP registry ("Browse servers"). The runtime opens
// and checks what it is given; the renderer shows it, asks the values and says Install or Cancel.
// shared/api.ts extends ApiMethods with these.
import type { McpServerView } from './mcp.ts';

/** One `user_config` field of a bundle's manifest. */
export interface McpBundleField {
  key: string;
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description?: string;
  required: boolean;
  /** Kept in the keychain only, never in settings. */
  sensitive: boolean;
  default?: string | number | boolean;
  /** The keychain secret the bundle named here: never read for it; the user types the value instead. */
  secretRef?: string;
}

/** What a bundle's manifest says about it, as shown before it is installed. */
export interface McpBundleFacts {
  name: string;
  version: string;
  displayName?: string;
  description?: string;
  author?: string;
  tools: string[];
  prompts: string[];
  /** Absent: any platform. */
  platforms?: string[];
  privacyPolicies: string[];
}

/** A bundle opened (unpacked in a staging folder) and waiting for Install or Cancel. */
export interface McpBundleView extends McpBundleFacts {
  /** The staged bundle, for installMcpBundle / discardMcpBundle. */
  id: string;
  fileName: string;
  signature: { status: 'signed' | 'unsigned' | 'self-signed'; publisher?: string };
  userConfig: McpBundleField[];
  /** Why it cannot be installed on this machine (a bundle for another platform). */
  platformProblem?: string;
  /** Installing it replaces the installed server of that name (a newer or older version of it). */
  updates?: string;
}

/** A server as the registry describes it (its latest version). */
export interface McpRegistryServer {
  /** The full registry name, e.g. `io.github.acme/weather`. */
  name: string;
  title?: string;
  description?: string;
  version: string;
  packages: Array<{
    registryType: string;
    identifier: string;
    version?: string;
    /** `secretRefs`: the keychain secrets the registry named in its default (the user types the value instead). */
    environmentVariables: Array<{ name: string; description?: string; isSecret: boolean; isRequired: boolean; default?: string; secretRefs?: string[] }>;
  }>;
  remotes: Array<{ type: string; url: string; headers: Array<{ name: string; description?: string; isSecret: boolean; value?: string; isRequired?: boolean; secretRefs?: string[] }> }>;
}

export interface McpRegistrySearch {
  /** The registry asked (settings `mcpRegistry.url`). */
  url: string;
  servers: McpRegistryServer[];
  /** The registry could not be reached and these came from the cache, this old (ms). */
  cachedAgeMs?: number;
}

export interface McpInstallApiMethods {
  /**
   * Opens a `.mcpb` the user picked or dropped (its bytes base64, bounded by the transport's
   * request size): unpacked into a staging folder, manifest checked, signature verified.
   */
  openMcpBundle: { request: { fileName: string; data: string }; response: McpBundleView };
  /**
   * Installs an opened bundle as `name` (default: the manifest's name) with its `user_config`
   * values as typed (checked by type; sensitive ones go to the keychain only, which must exist);
   * the server is switched on.
   */
  installMcpBundle: { request: { id: string; name?: string; values: Record<string, string> }; response: McpServerView[] };
  /** Cancel: the staged bundle is removed. */
  discardMcpBundle: { request: { id: string }; response: null };
  /** Searches the registry of settings `mcpRegistry.url` (cached: offline answers say how old they are). */
  searchMcpRegistry: { request: { text: string }; response: McpRegistrySearch };
  /**
   * Installs the registry's latest version of `name` as `localName` (default: the last part of the
   * name): npm → npx, PyPI → uvx, a remote → HTTP; `values` are its environment variables or
   * headers (secret ones to the keychain). The server is switched on.
   */
  installMcpRegistryServer: { request: { name: string; localName?: string; values: Record<string, string> }; response: McpServerView[] };
  /**
   * A registry server whose package is an mcpb bundle: downloaded once (its fileSha256 checked)
   * and opened like a picked bundle, for installMcpBundle / discardMcpBundle.
   */
  openMcpRegistryBundle: { request: { name: string }; response: McpBundleView };
}

export const MCP_INSTALL_API_METHODS = ['openMcpBundle', 'installMcpBundle', 'discardMcpBundle', 'searchMcpRegistry', 'installMcpRegistryServer', 'openMcpRegistryBundle'] as const satisfies readonly (keyof McpInstallApiMethods)[];

/** The local name a registry server installs as by default: the last part of its name. */
export const registryLocalName = (name: string): string => name.split('/').at(-1)!.replace(/[^A-Za-z0-9_.-]/g, '-');
