// Opens TOOLDESK_HOME's settings for a CLI command, printing any repair warning on stderr.
import { toolDeskHome } from '../runtime/paths.ts';
import { openSettingsStore, type SettingsStore } from '../runtime/store/settings-store.ts';
import { SecretStore, type SecretStoreOptions } from '../runtime/store/secret-store.ts';
import type { CliIO } from './command.ts';

export function openCliSettings(io: CliIO): { home: string; settings: SettingsStore } {
  const home = toolDeskHome(io.env);
  const settings = openSettingsStore(home);
  for (const warning of settings.warnings) io.stderr.write(`tooldesk: warning: ${warning}\n`);
  return { home, settings };
}

/** All of stdin as text (for secrets, which never come from argv). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The keychain every CLI command uses (`serve` included): the one place that reads
 * TOOLDESK_SECRET_SERVICE, which renames the keychain service (tests use a throwaway one).
 */
export function openCliSecrets(io: CliIO): SecretStore {
  const options: SecretStoreOptions = io.env.TOOLDESK_SECRET_SERVICE ? { service: io.env.TOOLDESK_SECRET_SERVICE } : {};
  return new SecretStore(options);
}
