// Session ids double as file names, so they are checked before they touch the file system.
import { randomBytes } from 'node:crypto';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const isValidSessionId = (id: string): boolean => ID_PATTERN.test(id);

/** Sortable by creation time: `<base36 ms>-<6 hex>`. */
export function newSessionId(now = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(3).toString('hex')}`;
}
