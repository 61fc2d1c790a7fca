// Open WebUI's rich UI (a method returning HTMLResponse) shown like an MCP App: the page becomes an
// own tool's app (tools/own-tool-app.ts), in the same sandboxed frame. Such a page does not speak
// the MCP Apps protocol, so a small script is put first in it to do the part every app must:
// `ui/initialize`, answering the host's pings (or it is stopped as stuck), and reporting its height.
import { OWN_APP_MAX_CHARS, type OwnAppData } from '../../tools/own-tool-app.ts';

/** The MCP Apps protocol version the shim announces (@modelcontextprotocol/ext-apps). */
const APPS_PROTOCOL_VERSION = '2026-01-26';

const SHIM = `<script>(() => {
  const send = (message) => parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*');
  let height = -1;
  const size = () => {
    const h = Math.ceil(document.documentElement.scrollHeight);
    if (h !== height) send({ method: 'ui/notifications/size-changed', params: { height: (height = h) } });
  };
  addEventListener('message', (event) => {
    if (event.source !== parent || !event.data || event.data.jsonrpc !== '2.0') return;
    const message = event.data;
    if (message.id === 'tooldesk-html-init' && 'result' in message) {
      send({ method: 'ui/notifications/initialized', params: {} });
      size();
      new ResizeObserver(size).observe(document.documentElement);
    } else if (message.method && message.id !== undefined) {
      send({ id: message.id, result: {} });
    }
  });
  send({ id: 'tooldesk-html-init', method: 'ui/initialize', params: { protocolVersion: '${APPS_PROTOCOL_VERSION}', appInfo: { name: 'open-webui-html', version: '1' }, appCapabilities: {} } });
})();</script>`;

/** The page with the shim first (after a doctype, which must stay first). */
export function withAppsShim(html: string): string {
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${SHIM}${html.slice(doctype[0].length)}` : `${SHIM}${html}`;
}

/** The app data of an HTMLResponse, or undefined when the page is too large to keep with the call. */
export function htmlResponseApp(html: string, group: string, callId: string, text: string): OwnAppData | undefined {
  const page = withAppsShim(html);
  if (page.length > OWN_APP_MAX_CHARS) return undefined;
  const name = callId.replace(/[^A-Za-z0-9_-]/g, '_') || 'call';
  return { type: 'resource', resource: { uri: `ui://open-webui/${group}/${name}.html`, mimeType: 'text/html;profile=mcp-app', text: page }, text };
}
