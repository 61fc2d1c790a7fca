// The one way a tool of another format (Python, PowerShell, script folder, three-layer, module)
// returns an MCP App: its result is an MCP embedded resource whose URI is `ui://…` and whose text
// is the HTML —
//   {"type": "resource", "resource": {"uri": "ui://NAME/view.html",
//    "mimeType": "text/html;profile=mcp-app", "text": "<!doctype html>…",
//    "_meta": {"ui": {"csp": {…}}}}, "text": "what the model reads (optional)"}
// The chat shows the app like an MCP server's; the model reads `text` (or a one-line note), never
// the HTML. The HTML is kept with the call (at most OWN_APP_MAX_CHARS), so a reopened chat shows
// it again without running the tool.
import type { ToolRunResult } from './types.ts';

/** The stored result keeps `data` up to 64 K characters (bound-tool-result.ts): the HTML must fit. */
export const OWN_APP_MAX_CHARS = 60_000;

export interface OwnAppData {
  type: 'resource';
  resource: { uri: string; mimeType?: string; text: string; _meta?: unknown };
  text?: string;
}

export function isOwnAppData(data: unknown): data is OwnAppData {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
  const d = data as { type?: unknown; resource?: { uri?: unknown; mimeType?: unknown; text?: unknown } };
  const mime = d.resource?.mimeType;
  return (
    d.type === 'resource' &&
    typeof d.resource?.uri === 'string' &&
    d.resource.uri.startsWith('ui://') &&
    typeof d.resource.text === 'string' &&
    (mime === undefined || (typeof mime === 'string' && /^text\/html\b/i.test(mime)))
  );
}

/** A run whose data is an app: marked as one, with the text the model reads instead of the HTML. */
export function withOwnApp(run: ToolRunResult): ToolRunResult {
  if (run.app || run.status === 'ERROR' || !isOwnAppData(run.data)) return run;
  const { resource, text } = run.data;
  if (resource.text.length > OWN_APP_MAX_CHARS) {
    return { ...run, data: { ...run.data, resource: { ...resource, text: '' } }, formattedText: text ?? '', warnings: [...(run.warnings ?? []), `The app's HTML is ${resource.text.length} characters; apps of own tools are shown up to ${OWN_APP_MAX_CHARS}.`] };
  }
  return { ...run, app: { uri: resource.uri }, ...(run.formattedText === undefined ? { formattedText: text ?? `[An app (${resource.uri}) is shown to the user.]` } : {}) };
}
