// Small helpers the CLI commands share: stdin as text, the secret store options of the environment.
import type { SecretStoreOptions } from '../runtime/store/secret-store.ts';
import type { CliIO } from './command.ts';

/** All of stdin as text (for secrets, which never come from argv). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** TOOLDESK_SECRET_SERVICE renames the keychain service (tests use a throwaway one). */
export function secretStoreOptions(io: CliIO): SecretStoreOptions {
  return io.env.TOOLDESK_SECRET_SERVICE ? { service: io.env.TOOLDESK_SECRET_SERVICE } : {};
}
