// Where pip, as the user configured it, will fetch packages from: read from `pip config list`
// (which includes the PIP_* variables), never guessed. Locations on disk (file:// URLs, find-links
// folders) need no network; each http(s) location names a host:port the install step may reach.
// No index-url configured means PyPI, whose files live on a second host.

export interface PipIndexes {
  /** `host:port` pairs the install step may reach (empty: everything pip needs is on disk). */
  hosts: string[];
  /** Every index and find-links location, as configured (for the user's message). */
  locations: string[];
}

const PYPI = 'https://pypi.org/simple';
/** PyPI's simple index links its files on this host. */
const PYPI_FILES = 'files.pythonhosted.org:443';

/** Parses `pip config list` output (`scope.key='value'` per line). */
export function pipIndexes(configList: string): PipIndexes {
  const values = new Map<string, string[]>();
  for (const line of configList.split('\n')) {
    const m = /^[^.\s]*\.([a-z-]+)='(.*)'$/.exec(line.trim());
    if (!m) continue;
    const items = m[2]!.split(/\s+/).filter(Boolean);
    // Later scopes (user over global, environment over both) win for index-url and no-index.
    if (m[1] === 'index-url' || m[1] === 'no-index') values.set(m[1], items);
    else values.set(m[1]!, [...(values.get(m[1]!) ?? []), ...items]);
  }
  const noIndex = ['1', 'true', 'yes', 'on'].includes((values.get('no-index')?.[0] ?? '').toLowerCase());
  const index = noIndex ? [] : (values.get('index-url') ?? [PYPI]);
  const locations = [...index, ...(noIndex ? [] : (values.get('extra-index-url') ?? [])), ...(values.get('find-links') ?? [])];
  const hosts = new Set<string>();
  for (const location of locations) {
    const host = hostOf(location);
    if (host) hosts.add(host);
    if (location.replace(/\/+$/, '') === PYPI) hosts.add(PYPI_FILES);
  }
  return { hosts: [...hosts], locations };
}

/** `host:port` of an http(s) URL; undefined for paths and file:// URLs. */
export function hostOf(location: string): string | undefined {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.replace(/^\[|\]$/g, '')}:${port}`;
}
