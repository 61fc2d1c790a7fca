// A session's title from its first user message: the first line, whitespace collapsed, cut at a
// word boundary. No model call.
export const DEFAULT_TITLE = 'New chat';

export function titleFromMessage(text: string, max = 60): string {
  const line = text.trim().split('\n').find((l) => l.trim() !== '')?.replace(/\s+/g, ' ').trim() ?? '';
  if (!line) return DEFAULT_TITLE;
  const points = Array.from(line);
  if (points.length <= max) return line;
  const cut = points.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
