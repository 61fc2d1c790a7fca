// The browser-mode token: random, and compared in constant time (hashing first makes the lengths
// equal, so the comparison itself leaks neither content nor length).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function createAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokensMatch(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}
