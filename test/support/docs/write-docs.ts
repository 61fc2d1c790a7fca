// `npm run docs`: writes the generated pages (docs/commands.md, docs/settings.md). The figures of
// docs/performance.md come from `npm run bench -- --write-docs`, which measures them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../run-cli.ts';
import { commandsPage } from './commands-page.ts';
import { settingsPage } from './settings-page.ts';

export const GENERATED_PAGES = {
  'docs/commands.md': commandsPage,
  'docs/settings.md': async () => settingsPage(),
} as const;

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const [page, make] of Object.entries(GENERATED_PAGES)) {
    writeFileSync(join(repoRoot, page), await make());
    process.stdout.write(`wrote ${page}\n`);
  }
}
