// Comment-based help (`<# .SYNOPSIS … #>` or a block of `#` lines) → its sections.

export interface PsHelp {
  synopsis: string;
  description: string;
  parameters: Record<string, string>;
  outputs: string;
}

const KEYWORD = /^\s*\.([A-Za-z]+)(?:[ \t]+(.*?))?\s*$/;

export function isHelpComment(text: string): boolean {
  return /^\s*(?:#\s*)?\.(SYNOPSIS|DESCRIPTION|PARAMETER|OUTPUTS|EXAMPLE|NOTES)\b/im.test(commentBody(text));
}

/** The text inside `<# #>`, or of `#` lines with their markers removed. */
export function commentBody(text: string): string {
  if (text.startsWith('<#')) return text.slice(2, text.endsWith('#>') ? -2 : undefined);
  return text
    .split('\n')
    .map((l) => l.replace(/^\s*#/, ''))
    .join('\n');
}

export function parseHelp(text: string): PsHelp {
  const help: PsHelp = { synopsis: '', description: '', parameters: {}, outputs: '' };
  let section: { keyword: string; argument: string; lines: string[] } | null = null;
  const flush = () => {
    if (!section) return;
    const body = dedent(section.lines);
    if (section.keyword === 'SYNOPSIS') help.synopsis = body;
    else if (section.keyword === 'DESCRIPTION') help.description = body;
    else if (section.keyword === 'PARAMETER' && section.argument) help.parameters[section.argument.toLowerCase()] = body;
    else if (section.keyword === 'OUTPUTS') help.outputs = body;
  };
  for (const line of commentBody(text).replace(/\r/g, '').split('\n')) {
    const keyword = KEYWORD.exec(line);
    if (keyword) {
      flush();
      section = { keyword: keyword[1]!.toUpperCase(), argument: (keyword[2] ?? '').trim(), lines: [] };
    } else if (section) {
      section.lines.push(line);
    }
  }
  flush();
  return help;
}

function dedent(lines: string[]): string {
  const texts = lines.filter((l) => l.trim());
  const indent = Math.min(...texts.map((l) => l.length - l.trimStart().length));
  return lines
    .map((l) => l.slice(Number.isFinite(indent) ? indent : 0).trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `.SYNOPSIS` + `.DESCRIPTION`, as one description. */
export function helpDescription(help: PsHelp): string {
  return [help.synopsis, help.description].filter(Boolean).join('\n\n');
}
