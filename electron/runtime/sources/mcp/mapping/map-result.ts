// An MCP `tools/call` result as a Tooldesk tool result. Text stays text; binary content (images,
// audio, embedded blobs) is summarised in the text the model reads; images travel beside the data
// (`images`: the chat shows them and sends them to vision models), other binary stays in `data`;
// `structuredContent` is the result's data (apps, variables, Inspect) while the server's own text
// stays what people and the model read, unless the text only repeats the JSON (or is absent);
// `isError` is an ERROR carrying the server's text.
import type { ToolRunResult } from '../../../tools/types.ts';

/** The parts of a CallToolResult we read; everything arrives from an untrusted server. */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

export interface McpImage {
  mimeType: string;
  /** base64 */
  data: string;
}

/** What `data` holds when the result has no structuredContent (image bytes are in the result's `images`). */
export interface McpContentData {
  text: string;
  content: unknown[];
}

const kb = (base64: string) => `${Math.max(1, Math.round((base64.length * 3) / 4 / 1024))} KB`;
const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);

/** One content block as the text the model reads. */
function describe(block: Record<string, unknown>, images: McpImage[]): string {
  switch (block.type) {
    case 'text':
      return str(block.text);
    case 'image': {
      const mimeType = str(block.mimeType, 'image');
      images.push({ mimeType, data: str(block.data) });
      return `[image ${mimeType}, ${kb(str(block.data))}]`;
    }
    case 'audio':
      return `[audio ${str(block.mimeType, 'audio')}, ${kb(str(block.data))}]`;
    case 'resource_link':
      return `[link: ${str(block.title) || str(block.name) || str(block.uri)} <${str(block.uri)}>${block.mimeType ? ` (${str(block.mimeType)})` : ''}]`;
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const uri = str(resource.uri, '(no uri)');
      const mime = resource.mimeType ? ` ${str(resource.mimeType)}` : '';
      if (typeof resource.text === 'string') return `[resource ${uri}${mime}, ${resource.text.length} characters]\n${resource.text}`;
      return `[resource ${uri}${mime}, ${kb(str(resource.blob))} binary]`;
    }
    default:
      return `[${typeof block.type === 'string' ? block.type : 'unknown'} content]`;
  }
}

export function mapCallResult(result: McpCallResult): ToolRunResult {
  const blocks = Array.isArray(result.content) ? result.content.filter((b): b is Record<string, unknown> => b !== null && typeof b === 'object') : [];
  const images: McpImage[] = [];
  const text = blocks.map((b) => describe(b, images)).join('\n');
  const structured = result.structuredContent;
  const hasStructured = structured !== undefined && structured !== null;

  if (result.isError === true) {
    return { status: 'ERROR', error: text || 'the server reported an error without a message', ...(hasStructured ? { data: structured } : {}) };
  }
  if (hasStructured) {
    const json = JSON.stringify(structured, null, 2);
    const textOnly = blocks.filter((b) => b.type === 'text').map((b) => str(b.text)).join('\n');
    if (textOnly.trim() === '' || repeatsJson(textOnly, structured)) {
      // What the text blocks add beyond the JSON (images, links) is kept beside it.
      const extra = blocks.filter((b) => b.type !== 'text').map((b) => describe(b, [])).join('\n');
      return { status: 'SUCCESS', data: structured, formattedText: extra ? `${json}\n${extra}` : json, ...(images.length ? { images } : {}) };
    }
    // The server wrote its own text for people (budget-allocator: a 15-line summary against 8.6 KB
    // of JSON; server-filesystem: the file itself against `{"content": "…"}`): that is what the
    // model reads. The JSON stays the data, and its own variable when it holds more than the text.
    const more = wrapsText(structured, textOnly) ? {} : { structuredText: json };
    return { status: 'SUCCESS', data: structured, ...more, formattedText: text, ...(images.length ? { images } : {}) };
  }
  // The bytes are in `images` once: the data names them instead of repeating them.
  const content = blocks.map((b) => (b.type === 'image' ? { ...b, data: `(${kb(str(b.data))} of image data: see the call's images)` } : b));
  const data: McpContentData = { text, content };
  return { status: 'SUCCESS', data, formattedText: text, ...(images.length ? { images } : {}) };
}

/** True when the text blocks are the structured content again, as JSON (what most servers send). */
function repeatsJson(text: string, structured: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(structured);
  } catch {
    return false;
  }
}

/** True when the structured content is only the text in a wrapper (`{"content": text}`). */
function wrapsText(structured: unknown, text: string): boolean {
  if (typeof structured !== 'object' || structured === null || Array.isArray(structured)) return false;
  const values = Object.values(structured);
  return values.length === 1 && values[0] === text;
}
