// An app's `ui://` resource read from its server (`resources/read`), cached per server and URI
// until the server says its resources changed (`notifications/resources/list_changed`) or
// restarts. The server is untrusted: the document is bounded and must be HTML.
import type { McpConnection } from '../sources/mcp/connection/server-connection.ts';

export const APP_HTML_MAX_BYTES = 5 * 1024 * 1024;
const MAX_CACHED = 64;

export interface AppResource {
  html: string;
  /** `_meta.ui` of the resource contents (csp, permissions …), untrusted. */
  ui: Record<string, unknown>;
}

const cache = new Map<string, { version: number; connection: McpConnection; resource: AppResource }>();

export async function readAppResource(connection: McpConnection, uri: string): Promise<AppResource | { error: string }> {
  const key = `${connection.name}\n${uri}`;
  const hit = cache.get(key);
  if (hit && hit.connection === connection && hit.version === connection.resourcesVersion) return hit.resource;
  const read = await connection.request(`read ${uri}`, (client, options) => client.readResource({ uri }, { ...options, cacheMode: 'bypass' }));
  if (!read.ok) return { error: read.error };
  const contents: Array<Record<string, unknown>> = Array.isArray(read.value.contents) ? read.value.contents : [];
  const part = contents.find((c) => c?.uri === uri) ?? contents[0];
  if (!part) return { error: `MCP server "${connection.name}" returned nothing for ${uri}` };
  const resource = appResourceFrom(part, uri);
  if ('error' in resource) return { error: `MCP server "${connection.name}": ${resource.error}` };
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, { version: connection.resourcesVersion, connection, resource });
  return resource;
}

/** Resource contents (`{uri, mimeType, text | blob, _meta}`) as an app document. */
export function appResourceFrom(part: Record<string, unknown>, uri: string): AppResource | { error: string } {
  const mime = typeof part.mimeType === 'string' ? part.mimeType : '';
  if (mime && !/^text\/html\b/i.test(mime)) return { error: `${uri} is ${mime}, not an app (text/html;profile=mcp-app)` };
  const html = typeof part.text === 'string' ? part.text : typeof part.blob === 'string' ? Buffer.from(part.blob, 'base64').toString('utf8') : undefined;
  if (html === undefined) return { error: `${uri} has neither text nor data` };
  const bytes = Buffer.byteLength(html);
  if (bytes > APP_HTML_MAX_BYTES) return { error: `${uri} is ${(bytes / 1024 / 1024).toFixed(1)} MB; apps up to ${APP_HTML_MAX_BYTES / 1024 / 1024} MB are shown` };
  const meta = part._meta && typeof part._meta === 'object' ? (part._meta as Record<string, unknown>) : {};
  const ui = meta.ui && typeof meta.ui === 'object' && !Array.isArray(meta.ui) ? (meta.ui as Record<string, unknown>) : {};
  return { html, ui };
}
