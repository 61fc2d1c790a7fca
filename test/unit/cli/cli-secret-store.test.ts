// Every CLI command gets its keychain from one function, so TOOLDESK_SECRET_SERVICE cannot be
// honoured by some commands and ignored by others (it was by `tools run` and `tools enable`).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('the CLI secret store', () => {
  it('is constructed in cli-settings.ts only', () => {
    const cli = join(root, 'electron/cli');
    const constructing = readdirSync(cli, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && /\.(ts|mts|mjs)$/.test(d.name))
      .map((d) => join(d.parentPath, d.name))
      .filter((file) => /new SecretStore\(|keyringBackend\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(constructing).toEqual(['electron/cli/cli-settings.ts']);
  });

  it('gives the CLI host (serve) and every command opening the runtime the same store', () => {
    expect(readFileSync(join(root, 'electron/cli/serve/run-browser-mode.ts'), 'utf8')).toMatch(/createRuntime\(\{[^}]*secrets: openCliSecrets\(io\)/);
    expect(readFileSync(join(root, 'electron/cli/cli-runtime.ts'), 'utf8')).toMatch(/createRuntime\(\{[^}]*secrets: openCliSecrets\(io\)/);
  });
});
