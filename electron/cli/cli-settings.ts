// Small helpers the CLI commands share: stdin as text, and the one keychain every command uses.
import { SecretStore, type SecretStoreOptions } from '../runtime/store/secret-store.ts';
import type { CliIO } from './command.ts';

/** All of stdin as text (for secrets, which never come from argv). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The keychain every CLI command uses (`serve` included, through openCliRuntime): the one place
 * that reads TOOLDESK_SECRET_SERVICE, which renames the keychain service (tests use a throwaway one).
 */
export function openCliSecrets(io: CliIO): SecretStore {
  const options: SecretStoreOptions = io.env.TOOLDESK_SECRET_SERVICE ? { service: io.env.TOOLDESK_SECRET_SERVICE } : {};
  return new SecretStore(options);
}
