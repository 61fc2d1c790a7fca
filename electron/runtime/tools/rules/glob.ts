// Globs as regular expressions. On paths `*` stays within one folder and `**` crosses folders; on
// other values (tool names, URLs, commands) `*` matches any run of characters. `?` is one
// character; `[abc]` a class. Everything else is literal, so a glob never fails to compile.

/** A pattern that names a file: absolute, `~`, or a Windows drive. */
export function isPathPattern(pattern: string): boolean {
  return pattern.startsWith('/') || pattern === '~' || pattern.startsWith('~/') || /^[A-Za-z]:[\\/]/.test(pattern);
}

export function globToRegExp(glob: string, options: { paths: boolean }): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `/**/` also matches a single `/`, and a trailing `/**` the folder itself.
        i++;
        if (glob[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else {
          out += '.*';
        }
      } else {
        out += options.paths ? '[^/]*' : '.*';
      }
    } else if (c === '?') {
      out += options.paths ? '[^/]' : '.';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
      } else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += body.startsWith('!') ? `[^${body.slice(1)}]` : `[${body}]`;
        i = end;
      }
    } else {
      out += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
    }
  }
  if (options.paths && out.endsWith('/.*')) out = `${out.slice(0, -3)}(?:/.*)?`;
  return new RegExp(`^${out}$`, 'su');
}
