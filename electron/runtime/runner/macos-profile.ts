// The sandbox-exec (Seatbelt) profile for one tool run on macOS: the same intent as the Linux
// bubblewrap plan. It cannot run on Linux, so its text is what the tests check.

export interface MacosProfilePlan {
  /** Real paths (macOS: /tmp is /private/tmp; Seatbelt matches real paths). */
  toolDir: string;
  writableToolDir: boolean;
  workDir?: string;
  /** More writable folders (real paths). */
  writableDirs?: string[];
  homeDir: string;
  allowHomeWrite: boolean;
  /** A per-run temporary folder (TMPDIR): macOS has no private /tmp. */
  tmpDir: string;
  network: boolean;
  /** Credential folders/files under the home that exist or not (a deny costs nothing). */
  hidePaths: string[];
  /** Folders inside which `.env`, `.env.*`, `*.pem`, `*.key`, `*.p12`, `*.pfx` are denied. */
  patternRoots: string[];
  /** Never writable, whatever the allows above (tool folder, tool roots, TOOLDESK_HOME…). */
  protectedPaths?: string[];
  /** Neither readable nor writable, given as absolute paths (Tooldesk's sessions). */
  hideAbsolute?: string[];
}

/** A string literal in SBPL (a Scheme dialect): backslash and double quote escaped. */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A regex literal in SBPL: `#"..."`, backslashes kept as they are, quotes escaped. */
export function sbplRegex(pattern: string): string {
  return `#"${pattern.replace(/"/g, '\\"')}"`;
}

/** A POSIX regex matching `value` literally. */
export function regexLiteral(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function buildMacosProfile(plan: MacosProfilePlan): string {
  const writable = [plan.tmpDir, plan.workDir, ...(plan.writableDirs ?? []), plan.writableToolDir ? plan.toolDir : undefined, plan.allowHomeWrite ? plan.homeDir : undefined]
    .filter((p): p is string => Boolean(p));
  const lines = [
    '(version 1)',
    '(allow default)',
    ';; The filesystem is read-only except the folders this run may write to.',
    '(deny file-write*)',
    `(allow file-write* ${writable.map((p) => `(subpath ${sbplString(p)})`).join(' ')} (literal "/dev/null") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/tty"))`,
    ';; Credentials: neither readable nor writable.',
    ...[...plan.hidePaths, ...(plan.hideAbsolute ?? [])].map((p) => `(deny file-read* file-write* (subpath ${sbplString(p)}))`),
  ];
  // Seatbelt lets the last matching rule win: these come after the allow, so no nesting undoes them.
  if (plan.protectedPaths?.length) lines.push(';; Tool folders, tool roots and Tooldesk\'s own folder stay read-only.', `(deny file-write* ${plan.protectedPaths.map((p) => `(subpath ${sbplString(p)})`).join(' ')})`);
  if (plan.patternRoots.length > 0) lines.push(';; Secret-looking files inside the folders the tool works in.');
  for (const root of plan.patternRoots) {
    const prefix = `^${regexLiteral(root)}/(.*/)?`;
    lines.push(`(deny file-read* file-write* (regex ${sbplRegex(`${prefix}\\.env(\\.[^/]*)?$`)} ${sbplRegex(`${prefix}[^/]*\\.(pem|key|p12|pfx)$`)}))`);
  }
  if (!plan.network) lines.push(';; The tool declared network: false.', '(deny network*)');
  return `${lines.join('\n')}\n`;
}
