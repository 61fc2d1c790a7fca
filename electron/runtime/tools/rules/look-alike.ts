// A skeleton of a name for deny and ask rules: a tool named with look-alike letters (Cyrillic
// `е` for `e`, fullwidth `ｄ`, combining marks, zero-width characters) must not slip past a rule
// written with plain ones. Allow rules never use it: only the exact name earns an allow.

const CONFUSABLES: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j', ԁ: 'd', ɡ: 'g', ӏ: 'l',
  А: 'a', В: 'b', Е: 'e', К: 'k', М: 'm', Н: 'h', О: 'o', Р: 'p', С: 'c', Т: 't', Х: 'x', Ѕ: 's', І: 'i', Ј: 'j',
  α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', Α: 'a', Β: 'b', Ε: 'e', Ζ: 'z', Η: 'h', Ι: 'i', Κ: 'k', Μ: 'm', Ν: 'n', Ο: 'o', Ρ: 'p', Τ: 't', Υ: 'y', Χ: 'x',
  ı: 'i', ℓ: 'l', '‐': '-', '‑': '-', '–': '-', '—': '-', '＿': '_',
};

export function nameSkeleton(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u200b-\u200f\u2060\ufeff\u00ad]/g, '')
    .normalize('NFKC');
  let out = '';
  for (const ch of folded) out += CONFUSABLES[ch] ?? ch;
  return out.toLowerCase();
}
