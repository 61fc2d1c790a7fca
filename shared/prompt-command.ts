// `/server:prompt name=value name2="two words"` typed in the message box: an MCP prompt to run.
// Pure, so the composer (hints) and the runtime (running it) read it the same way.

export interface PromptCommand {
  server: string;
  prompt: string;
  args: Record<string, string>;
}

/** `/server:prompt` at the start of the text (the colon sets it apart from `/tool`), or null. */
const HEAD = /^\/([^\s:/{]+):([^\s{]+)(?:\s+([\s\S]*))?$/;

/** The command, or what is wrong with its arguments; null when the text is not a prompt command. */
export function parsePromptCommand(text: string): PromptCommand | { error: string } | null {
  const match = HEAD.exec(text.trim());
  if (!match) return null;
  const [, server, prompt, rest = ''] = match;
  // A Map: names such as `constructor` or `__proto__` are just names here.
  const args = new Map<string, string>();
  let i = 0;
  const s = rest.trim();
  while (i < s.length) {
    const name = /^([A-Za-z0-9_.-]+)=/.exec(s.slice(i));
    if (!name) {
      const word = /^\S+/.exec(s.slice(i))![0];
      return { error: `"${word}" is not an argument: write arguments as name=value (quote a value with spaces: name="two words")` };
    }
    i += name[0].length;
    let value = '';
    const quote = s[i];
    if (quote === '"' || quote === "'") {
      i++;
      let closed = false;
      while (i < s.length) {
        const c = s[i]!;
        if (c === '\\' && quote === '"' && i + 1 < s.length) {
          value += s[i + 1];
          i += 2;
          continue;
        }
        i++;
        if (c === quote) {
          closed = true;
          break;
        }
        value += c;
      }
      if (!closed) return { error: `the value of ${name[1]} has no closing ${quote}` };
      if (i < s.length && !/\s/.test(s[i]!)) return { error: `put a space after the closing ${quote} of ${name[1]}` };
    } else {
      const bare = /^\S*/.exec(s.slice(i))![0];
      value = bare;
      i += bare.length;
    }
    if (args.has(name[1]!)) return { error: `${name[1]} is given twice` };
    args.set(name[1]!, value);
    while (i < s.length && /\s/.test(s[i]!)) i++;
  }
  return { server: server!, prompt: prompt!, args: Object.fromEntries(args) };
}
