// Stand-ins for the pi-tui (and pi-coding-agent UI) values tools import. Tooldesk never draws a
// terminal UI, but tools build these in renderCall/renderResult, subclass them at the top level of
// their module, or use the text helpers (visibleWidth, truncateToWidth) to format their output —
// so each must exist, construct, and do something sensible with plain text.

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(?:\x07|\x1b\\)/g;

/** Columns a string takes on screen: escape codes take none, wide (CJK, emoji) characters two. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(ANSI, '')) {
    const code = char.codePointAt(0)!;
    if (code < 32 || (code >= 0x300 && code < 0x370) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Cuts plain text to `width` columns, ending in `ellipsis` when it had to cut. */
export function truncateToWidth(text: string, width: number, ellipsis = '...', pad = false): string {
  const plain = text.replace(ANSI, '');
  if (visibleWidth(plain) <= width) return pad ? plain + ' '.repeat(Math.max(0, width - visibleWidth(plain))) : text;
  const room = Math.max(0, width - visibleWidth(ellipsis));
  let out = '';
  for (const char of plain) {
    if (visibleWidth(out + char) > room) break;
    out += char;
  }
  return out + (width > visibleWidth(ellipsis) ? ellipsis : '');
}

/** Word-wraps each line of `text` to `width` columns. */
export function wrapTextWithAnsi(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.replace(ANSI, '').split('\n')) {
    let current = '';
    for (const word of line.split(/(\s+)/)) {
      if (current && visibleWidth(current + word) > width) {
        out.push(current.trimEnd());
        current = word.trimStart();
      } else current += word;
    }
    out.push(current);
  }
  return out;
}

/** No keyboard reaches a headless tool: no key ever matches. */
export function matchesKey(_data: string, _key: string): boolean {
  return false;
}

/** `Key.escape`, `Key.ctrl("c")` … → the key ids pi-tui uses ("escape", "ctrl+c"). */
export const Key: Record<string, unknown> = new Proxy({} as Record<string, unknown>, {
  get(_target, prop) {
    if (typeof prop !== 'string') return undefined;
    if (['ctrl', 'shift', 'alt', 'super', 'ctrlShift', 'ctrlAlt', 'shiftAlt'].includes(prop)) {
      const prefix = prop.replace(/([A-Z])/g, '+$1').toLowerCase();
      return (key: string) => `${prefix}+${key}`;
    }
    return prop;
  },
});

/** Base of the components: holds text or children, renders them as plain lines. */
export class Component {
  children: unknown[] = [];
  addChild(child: unknown): void {
    this.children.push(child);
  }
  removeChild(child: unknown): void {
    this.children = this.children.filter((c) => c !== child);
  }
  clear(): void {
    this.children = [];
  }
  render(width: number): string[] {
    return this.children.flatMap((child) => (typeof (child as Component)?.render === 'function' ? (child as Component).render(width) : []));
  }
  handleInput(_data: string): void {}
  invalidate(): void {}
}

export class Container extends Component {}

export class Box extends Component {
  constructor(
    public paddingX = 0,
    public paddingY = 0,
    public bg?: unknown,
  ) {
    super();
  }
  setBgFn(bg: unknown): void {
    this.bg = bg;
  }
}

export class Text extends Component {
  constructor(
    public text = '',
    public paddingX = 0,
    public paddingY = 0,
    public bg?: unknown,
  ) {
    super();
  }
  setText(text: string): void {
    this.text = text;
  }
  setCustomBgFn(bg: unknown): void {
    this.bg = bg;
  }
  override render(width: number): string[] {
    return this.text.split('\n').map((line) => truncateToWidth(line, Math.max(0, width), ''));
  }
}

export class TruncatedText extends Text {}
export class Markdown extends Text {}

export class Spacer extends Component {
  constructor(public lines = 1) {
    super();
  }
  override render(): string[] {
    return Array.from({ length: this.lines }, () => '');
  }
}

/** Text inputs: keep the text they are given; nobody types into them here. */
export class Input extends Component {
  value = '';
  onSubmit?: (value: string) => void;
  onEscape?: () => void;
  constructor(..._args: unknown[]) {
    super();
  }
  getValue(): string {
    return this.value;
  }
  setValue(value: string): void {
    this.value = value;
  }
  getText(): string {
    return this.value;
  }
  setText(value: string): void {
    this.value = value;
  }
  override render(): string[] {
    return [this.value];
  }
}

export class Editor extends Input {}

export class SelectList extends Component {
  onSelect?: (item: unknown) => void;
  onCancel?: () => void;
  onSelectionChange?: (item: unknown) => void;
  constructor(
    public items: unknown[] = [],
    ..._rest: unknown[]
  ) {
    super();
  }
  setFilter(_filter: string): void {}
  setSelectedIndex(_index: number): void {}
  getSelectedItem(): unknown {
    return this.items[0];
  }
}

/** Spinners and borders draw nothing; a loader's abort signal is a real one. */
export class Loader extends Component {
  constructor(..._args: unknown[]) {
    super();
  }
  start(): void {}
  stop(): void {}
  setMessage(_message: string): void {}
}

export class CancellableLoader extends Loader {
  private controller = new AbortController();
  onAbort?: () => void;
  get signal(): AbortSignal {
    return this.controller.signal;
  }
}

export class BorderedLoader extends CancellableLoader {}

export class DynamicBorder extends Component {
  constructor(..._args: unknown[]) {
    super();
  }
}

export class Image extends Component {
  constructor(..._args: unknown[]) {
    super();
  }
}

/** A theme whose colour functions return their text unchanged. */
export function plainTheme(): Record<string, unknown> {
  const identity = (...args: unknown[]) => String(args.length > 1 ? args[1] : args[0] ?? '');
  return new Proxy({} as Record<string, unknown>, { get: (_t, prop) => (prop === 'then' ? undefined : identity) });
}

export const getMarkdownTheme = plainTheme;
export const getSelectListTheme = plainTheme;
export const getEditorTheme = plainTheme;
export const getSettingsListTheme = plainTheme;

/** A hint like "esc to cancel" names keys nobody can press here. */
export function keyHint(..._args: unknown[]): string {
  return '';
}

export function highlightCode(code: string, _lang?: string): string[] {
  return code.split('\n');
}

/** Narrows a `tool_call` event to one tool (pi-mono's helper for pi.on("tool_call") handlers). */
export function isToolCallEventType(toolName: string, event: unknown): boolean {
  return (event as { toolName?: unknown } | null)?.toolName === toolName;
}
