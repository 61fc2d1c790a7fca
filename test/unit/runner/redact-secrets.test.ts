import { describe, expect, it } from 'vitest';
import { createRedactor, createStreamRedactor } from '../../../electron/runtime/runner/redact-secrets.ts';

describe('redact secrets', () => {
  it('replaces every value with [secret:NAME], longest first, also in its JSON-escaped form', () => {
    const redact = createRedactor({ TOKEN: 'abc123', LONG: 'abc123xyz', QUOTED: 'p"w\\d', EMPTY: '' });
    expect(redact('t=abc123 l=abc123xyz again abc123')).toBe('t=[secret:TOKEN] l=[secret:LONG] again [secret:TOKEN]');
    expect(redact(JSON.stringify({ v: 'p"w\\d' }))).toBe('{"v":"[secret:QUOTED]"}');
    expect(redact('nothing here')).toBe('nothing here');
  });

  it('does not let a secret split across streamed chunks slip out', () => {
    const out: string[] = [];
    const s = createStreamRedactor({ K: 'supersecret' }, (t) => out.push(t));
    for (const chunk of ['value: sup', 'ers', 'ecret; and s', 'uper', ' done']) s.push(chunk);
    s.flush();
    const joined = out.join('');
    expect(joined).toBe('value: [secret:K]; and super done');
    expect(out.some((c) => c.includes('sup') && !c.includes('super done') && c.endsWith('sup'))).toBe(false);
  });

  it('also replaces the base64 (standard, URL-safe, with and without padding) and URL-encoded forms', () => {
    // Chosen so that standard and URL-safe base64 differ ("+" and "/") and padding is needed.
    const secret = 'k>?~ a&b/c';
    const b64 = Buffer.from(secret).toString('base64');
    const b64url = Buffer.from(secret).toString('base64url');
    expect(b64).toMatch(/[+/].*=$/);
    expect(b64url).not.toBe(b64.replace(/=+$/, ''));
    const redact = createRedactor({ K: secret });
    const printed = [b64, b64.replace(/=+$/, ''), b64url, `${b64url}==`, encodeURIComponent(secret), new URLSearchParams({ q: secret }).toString().slice(2)];
    for (const form of printed) expect(redact(`before ${form} after`)).toBe('before [secret:K] after');
    expect(redact(`https://x.test/?token=${encodeURIComponent(secret)}&b=1`)).toBe('https://x.test/?token=[secret:K]&b=1');
    expect(redact(JSON.stringify({ auth: `Bearer ${b64}` }))).toBe('{"auth":"Bearer [secret:K]"}');
  });

  it('holds back a base64 form split across streamed chunks too', () => {
    const out: string[] = [];
    const b64 = Buffer.from('supersecret-value').toString('base64');
    const s = createStreamRedactor({ K: 'supersecret-value' }, (t) => out.push(t));
    s.push(`token ${b64.slice(0, 7)}`);
    s.push(`${b64.slice(7)} end`);
    s.flush();
    expect(out.join('')).toBe('token [secret:K] end');
    expect(out.join('\n')).not.toContain(b64.slice(0, 7));
  });
});
