// Browser mode listens on loopback only, and answers only requests addressed to that loopback
// host: a page on evil.example whose DNS later points at 127.0.0.1 (DNS rebinding) sends
// `Host: evil.example` and `Origin: http://evil.example` and is refused.

export class LoopbackOnlyError extends Error {
  override name = 'LoopbackOnlyError';
}

/** Normalises the bind address; anything that is not 127.0.0.1 (or `localhost`) is refused. */
export function loopbackBindAddress(hostname: string | undefined): string {
  const h = (hostname ?? '127.0.0.1').trim().toLowerCase();
  if (h === '127.0.0.1' || h === 'localhost') return '127.0.0.1';
  throw new LoopbackOnlyError(
    `refusing to listen on ${JSON.stringify(hostname)}: browser mode serves 127.0.0.1 only, because the API can run tools on this machine`,
  );
}

/** The Host header values that address this server. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  return typeof hostHeader === 'string' && allowedHosts(port).includes(hostHeader.toLowerCase());
}

/** Browsers always send Origin on WebSocket; a non-browser client (no Origin) still needs the token. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`);
}
