// `openDocs`: the app's "?" links open a page of the user docs (docs/ beside resources/ in the
// checkout, or TOOLDESK_DOCS) with the system, as the tools folder is opened. Only a page name of
// the docs-pages pattern is taken, it must resolve inside the docs folder and exist; anything else
// is a NotFoundError naming the page, so a link cannot be turned into "open this file".
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { apiError } from '../../../../shared/api.ts';
import { DOCS_PAGE_PATTERN } from '../../../../shared/docs-pages.ts';
import { openWithSystem } from '../../base/open-with-system.ts';
import { resourcesDir } from '../../sources/process/helper-scripts.ts';

/** The user docs folder: TOOLDESK_DOCS, else `docs/` beside the resources folder. */
export function docsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLDESK_DOCS || join(dirname(resourcesDir()), 'docs');
}

/** The absolute path of `page` (a path under docs/), or a NotFoundError that names it. */
export function docsPagePath(page: string, dir: string = docsDir()): string {
  if (!DOCS_PAGE_PATTERN.test(page)) throw apiError('NotFoundError', `"${page}" is not a docs page name (e.g. "mcp/servers.md")`);
  const path = join(dir, page);
  if (!existsSync(path)) throw apiError('NotFoundError', `no docs page ${page} in ${dir}`);
  // The pattern has no "..", but a symlink could still lead out of the folder.
  const real = realpathSync(path);
  if (!real.startsWith(realpathSync(dir) + sep)) throw apiError('NotFoundError', `docs page ${page} is outside ${dir}`);
  return real;
}

export async function openDocs(page: string, open: (target: string) => Promise<boolean> = openWithSystem): Promise<{ path: string; opened: boolean }> {
  const path = docsPagePath(page);
  return { path, opened: await open(path) };
}
