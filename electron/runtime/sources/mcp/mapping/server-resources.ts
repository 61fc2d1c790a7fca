// A server's resources (resources/list) for "Attach resource", and one resource (resources/read)
// as an attachment of the next message, like a file the user picked: text as a text file, a blob
// as an image or PDF. Bounded so it fits one message (the API carries attachments as base64).
import type { AttachmentUpload } from '../../../../../shared/api.ts';
import type { McpResourceInfo } from '../../../../../shared/mcp.ts';
import type { McpConnection } from '../connection/server-connection.ts';

/** Resources kept from one server. */
export const MAX_RESOURCES = 1000;
/** Bytes of one resource (and of a prompt's attachments together): a message carries up to 2 MB of files. */
export const RESOURCE_MAX_BYTES = 2 * 1024 * 1024;

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

export async function listResources(connection: McpConnection): Promise<McpResourceInfo[] | { error: string }> {
  const listed = await connection.request('list its resources', (client, options) => client.listResources(undefined, { ...options, cacheMode: 'refresh' }));
  if (!listed.ok) return { error: listed.error };
  return (Array.isArray(listed.value.resources) ? listed.value.resources : []).slice(0, MAX_RESOURCES).flatMap((r): McpResourceInfo[] => {
    const uri = str(r?.uri);
    if (!uri) return [];
    return [
      {
        server: connection.name,
        uri,
        name: str(r.name) ?? uri,
        ...(str(r.title) ? { title: r.title! } : {}),
        ...(str(r.description) ? { description: r.description!.slice(0, 2000) } : {}),
        ...(str(r.mimeType) ? { mimeType: r.mimeType! } : {}),
        ...(typeof r.size === 'number' && Number.isFinite(r.size) ? { size: r.size } : {}),
      },
    ];
  });
}

/** Reads a resource as an attachment named after it. */
export async function readResourceAttachment(connection: McpConnection, uri: string, signal?: AbortSignal): Promise<AttachmentUpload | { error: string }> {
  const read = await connection.request(`read ${uri}`, (client, options) => client.readResource({ uri }, { ...options, cacheMode: 'bypass' }), signal);
  if (!read.ok) return { error: read.error };
  const contents: Array<Record<string, unknown>> = Array.isArray(read.value.contents) ? read.value.contents : [];
  if (contents.length === 0) return { error: `MCP server "${connection.name}" returned nothing for ${uri}` };
  // A resource may come in parts (a folder's files): text parts are joined, else the first part is taken.
  const texts = contents.filter((c) => typeof c?.text === 'string');
  const first = texts.length > 1 ? { uri, mimeType: 'text/plain', text: texts.map((c) => `${c.uri}:\n${c.text as string}`).join('\n\n') } : contents[0];
  const attached = attachmentFromContents(first, nameOf(uri));
  if ('error' in attached) return { error: `MCP server "${connection.name}": ${attached.error}` };
  return attached;
}

/**
 * Resource contents (`{uri, mimeType, text | blob}`) as an upload: text as a text file (named
 * `.txt` unless the name says what it is), blobs that are images or PDFs as such.
 */
export function attachmentFromContents(contents: unknown, name: string): AttachmentUpload | { error: string } {
  const c = (contents ?? {}) as Record<string, unknown>;
  const uri = str(c.uri) ?? name;
  const mimeType = str(c.mimeType);
  if (typeof c.text === 'string') {
    const bytes = Buffer.byteLength(c.text);
    if (bytes > RESOURCE_MAX_BYTES) return tooBig(uri, bytes);
    const textName = /\.[A-Za-z0-9]{1,8}$/.test(name) ? name : `${name}.txt`;
    return { name: textName, mediaType: mimeType && /^text\/|json|xml|yaml|javascript/.test(mimeType) ? mimeType : 'text/plain', data: Buffer.from(c.text).toString('base64') };
  }
  if (typeof c.blob === 'string') {
    const bytes = Math.floor((c.blob.length * 3) / 4);
    if (bytes > RESOURCE_MAX_BYTES) return tooBig(uri, bytes);
    if (mimeType?.startsWith('image/') || mimeType === 'application/pdf') return { name, mediaType: mimeType, data: c.blob };
    return { error: `${uri} is ${mimeType ?? 'binary data'}, which cannot be attached (images, PDFs and text can)` };
  }
  return { error: `${uri} has neither text nor data` };
}

const tooBig = (uri: string, bytes: number) => ({ error: `${uri} is ${(bytes / 1024 / 1024).toFixed(1)} MB; resources up to ${RESOURCE_MAX_BYTES / 1024 / 1024} MB can be attached` });

/** A file name from a URI: its last path segment, made safe. */
function nameOf(uri: string): string {
  let last = uri;
  try {
    const url = new URL(uri);
    last = decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? url.hostname);
  } catch {
    last = uri.split('/').filter(Boolean).at(-1) ?? uri;
  }
  return last.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '').slice(0, 80) || 'resource';
}
