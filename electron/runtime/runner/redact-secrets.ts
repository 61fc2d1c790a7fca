// Replaces secret values with `[secret:NAME]` in anything a tool process produced, before it is
// stored or shown (results, variables, session files, logs, error messages). It recognises the
// value and a few common encodings of it (see secretForms); a tool that encodes a secret another
// way can still leak it.

export type Redact = (text: string) => string;

interface Needle {
  value: string;
  label: string;
}

/**
 * The forms a whole value commonly takes in output: as is, escaped inside a JSON string, base64
 * (standard and URL-safe, with and without padding) and URL-encoded (encodeURIComponent, and form
 * encoding as URLSearchParams writes it). Cheap and common, not complete: the secret inside a
 * longer base64 text (`user:secret`), hex, or any other encoding is not recognised.
 */
export function secretForms(value: string): string[] {
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  const base64url = base64.replaceAll('+', '-').replaceAll('/', '_');
  const form = new URLSearchParams({ '': value }).toString().slice(1);
  const forms = [value, JSON.stringify(value).slice(1, -1), base64, base64.replace(/=+$/, ''), base64url, base64url.replace(/=+$/, ''), encodeURIComponent(value), form];
  return [...new Set(forms)];
}

function needlesFor(secrets: Record<string, string>): Needle[] {
  const needles: Needle[] = [];
  for (const [name, value] of Object.entries(secrets)) {
    if (!value) continue;
    const label = `[secret:${name}]`;
    for (const form of secretForms(value)) needles.push({ value: form, label });
  }
  // Longest first, so a secret that contains another is replaced whole (and padded base64
  // before the same text without its padding).
  return needles.sort((a, b) => b.value.length - a.value.length);
}

/** Returns a function that redacts every value of `secrets` (empty values are ignored). */
export function createRedactor(secrets: Record<string, string>): Redact {
  const needles = needlesFor(secrets);
  if (needles.length === 0) return (text) => text;
  return (text) => {
    if (typeof text !== 'string' || text.length === 0) return text;
    let out = text;
    for (const n of needles) if (out.includes(n.value)) out = out.split(n.value).join(n.label);
    return out;
  };
}

export interface StreamRedactor {
  /** Adds streamed text; emits what is safe to show now. */
  push(text: string): void;
  /** Emits what was held back (call once, at the end). */
  flush(): void;
}

/**
 * For streamed chunks: a secret split across two chunks must not slip out half by half, so the
 * tail that could be the start of a secret is held back until the next chunk (or flush).
 */
export function createStreamRedactor(secrets: Record<string, string>, emit: (text: string) => void): StreamRedactor {
  const needles = needlesFor(secrets);
  const redact = createRedactor(secrets);
  let pending = '';
  return {
    push(text) {
      if (needles.length === 0) {
        if (text) emit(text);
        return;
      }
      const all = redact(pending + text);
      const hold = heldTail(all, needles);
      pending = all.slice(all.length - hold);
      const ready = all.slice(0, all.length - hold);
      if (ready) emit(ready);
    },
    flush() {
      if (pending) emit(redact(pending));
      pending = '';
    },
  };
}

/** Length of the longest suffix of `text` that is a proper prefix of some needle. */
function heldTail(text: string, needles: Needle[]): number {
  let longest = 0;
  for (const { value } of needles) {
    const max = Math.min(value.length - 1, text.length);
    for (let len = max; len > longest; len--) {
      if (text.endsWith(value.slice(0, len))) {
        longest = len;
        break;
      }
    }
  }
  return longest;
}
