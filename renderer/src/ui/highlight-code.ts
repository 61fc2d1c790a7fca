// Syntax highlighting for finished code blocks. highlight.js (common languages) is loaded on the
// first block that needs it, so a chat without code never pays for it. Its output is escaped text
// wrapped in class-only spans: nothing from the code block is interpreted as HTML.
type Hljs = typeof import('highlight.js/lib/common').default;

let loading: Promise<Hljs | null> | undefined;

function loadHighlighter(): Promise<Hljs | null> {
  loading ??= import('highlight.js/lib/common').then(
    (mod) => mod.default,
    () => null, // a failed chunk load leaves code plain, never breaks the message
  );
  return loading;
}

/** The language a fenced block named (`language-ts` → `ts`), if any. */
function languageOf(code: Element): string | undefined {
  return Array.from(code.classList).find((c) => c.startsWith('language-'))?.slice('language-'.length);
}

const DONE = 'data-highlighted';

/** Highlights the code blocks under `root` that name a language the highlighter knows. */
export async function highlightCodeBlocks(root: HTMLElement): Promise<void> {
  const blocks = Array.from(root.querySelectorAll('pre > code')).filter((code) => !code.hasAttribute(DONE) && languageOf(code));
  if (blocks.length === 0) return;
  const hljs = await loadHighlighter();
  if (!hljs) return;
  for (const code of blocks) {
    const language = languageOf(code)!;
    if (!code.isConnected || code.hasAttribute(DONE) || !hljs.getLanguage(language)) continue;
    const { value } = hljs.highlight(code.textContent ?? '', { language, ignoreIllegals: true });
    code.innerHTML = value;
    code.classList.add('hljs');
    code.setAttribute(DONE, '');
  }
}
