// The Content-Security-Policy an MCP App runs under, built from its resource's `_meta.ui.csp`.
// Default: no network at all (no connect, no remote script, style, image or frame, no form
// posts); the domains a resource declares open exactly their directive. 'self' is never
// granted: the sandbox origin serves other apps' documents, and an app must not reach them.
// A declared entry that is not a plain origin (quotes, semicolons, spaces, schemes such as
// `data:` or `javascript:`) is dropped and reported, so a server cannot inject directives.
import type { AppCspDomains } from '../../../shared/mcp-apps.ts';

export interface AppCsp {
  /** The header value. */
  policy: string;
  /** What the app may reach, for the user: "connect https://api.example.com" … */
  network: string[];
  /** Entries refused, with the field they came from. */
  dropped: string[];
}

const MAX_DOMAINS = 32;
// scheme://host[:port], where host may start with "*." (CSP host-source); http(s) and ws(s) only.
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:(\d{1,5}|\*))?$/;

function clean(field: keyof AppCspDomains, value: unknown, dropped: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    dropped.push(`${field}: not a list`);
    return [];
  }
  const kept: string[] = [];
  for (const entry of value) {
    const text = typeof entry === 'string' ? entry.trim().replace(/\/$/, '') : '';
    if (kept.length >= MAX_DOMAINS) {
      dropped.push(`${field}: more than ${MAX_DOMAINS} entries`);
      break;
    }
    if (ORIGIN.test(text)) {
      if (!kept.includes(text)) kept.push(text);
    } else dropped.push(`${field}: ${JSON.stringify(entry).slice(0, 80)} is not an origin like https://api.example.com`);
  }
  return kept;
}

/** `csp`: the resource's `_meta.ui.csp` as the server sent it (untrusted). */
export function buildAppCsp(csp: unknown): AppCsp {
  const given = (csp && typeof csp === 'object' && !Array.isArray(csp) ? csp : {}) as Record<string, unknown>;
  const dropped: string[] = [];
  const connect = clean('connectDomains', given.connectDomains, dropped);
  const resource = clean('resourceDomains', given.resourceDomains, dropped);
  const frame = clean('frameDomains', given.frameDomains, dropped);
  const baseUri = clean('baseUriDomains', given.baseUriDomains, dropped);
  const list = (extra: string[], fallback = "'none'") => (extra.length ? extra.join(' ') : fallback);
  const policy = [
    "default-src 'none'",
    `script-src 'unsafe-inline'${resource.length ? ` ${resource.join(' ')}` : ''}`,
    `style-src 'unsafe-inline'${resource.length ? ` ${resource.join(' ')}` : ''}`,
    `img-src data: blob:${resource.length ? ` ${resource.join(' ')}` : ''}`,
    `font-src data:${resource.length ? ` ${resource.join(' ')}` : ''}`,
    `media-src data: blob:${resource.length ? ` ${resource.join(' ')}` : ''}`,
    `connect-src ${list(connect)}`,
    `frame-src ${list(frame)}`,
    `base-uri ${list(baseUri)}`,
    "form-action 'none'",
    "object-src 'none'",
    "worker-src 'none'",
  ].join('; ');
  const network = [
    ...connect.map((d) => `connect ${d}`),
    ...resource.map((d) => `load scripts, styles and media from ${d}`),
    ...frame.map((d) => `frame ${d}`),
    ...baseUri.map((d) => `base URI ${d}`),
  ];
  return { policy, network, dropped };
}
