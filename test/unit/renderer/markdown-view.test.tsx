import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { MarkdownView } from '../../../renderer/src/ui/markdown-view.tsx';

describe('MarkdownView', () => {
  it('puts a copy button on each code block that copies the code', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(() => <MarkdownView text={'Run:\n\n```sh\nnpm test\n```'} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('npm test\n'));
    await screen.findByText('Copied');
  });

  it('renders streamed text in kept chunks plus a live tail, then once in full', async () => {
    const [text, setText] = createSignal('First paragraph.\n\nSecond');
    const [streaming, setStreaming] = createSignal(true);
    const { container } = render(() => <MarkdownView text={text()} streaming={streaming()} />);
    const root = container.querySelector('.markdown')!;
    await waitFor(() => expect(root.querySelector('.md-chunk')).toHaveTextContent('First paragraph.'));
    const chunk = root.querySelector('.md-chunk');
    setText('First paragraph.\n\nSecond paragraph <b>x</b>.');
    await waitFor(() => expect(root.querySelector('.md-tail')).toHaveTextContent('Second paragraph <b>x</b>.'));
    // The finished paragraph was not rendered again.
    expect(root.querySelector('.md-chunk')).toBe(chunk);
    setStreaming(false);
    await waitFor(() => expect(root.querySelector('.md-chunk')).toBeNull());
    expect(root.querySelectorAll('p')).toHaveLength(2);
    expect(root.querySelector('b')).toBeNull();
  });

  it('highlights finished code blocks and Copy still copies the plain code', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const source = 'const a = "<img src=x onerror=alert(1)>"; // note';
    const { container } = render(() => <MarkdownView text={'```ts\n' + source + '\n```\n\n```nosuchlang\nplain <b>\n```'} />);
    await waitFor(() => expect(container.querySelector('code.hljs .hljs-keyword')).toHaveTextContent('const'));
    const code = container.querySelector('code.hljs')!;
    expect(code.querySelector('.hljs-string')).toHaveTextContent('"<img src=x onerror=alert(1)>"');
    expect(container.querySelector('img')).toBeNull();
    expect(code.textContent).toBe(source + '\n');
    // A language the highlighter does not know stays as plain, escaped text.
    const unknown = container.querySelector('code.language-nosuchlang')!;
    expect(unknown.classList.contains('hljs')).toBe(false);
    expect(unknown.textContent).toBe('plain <b>\n');
    fireEvent.click(screen.getAllByRole('button', { name: 'Copy code' })[0]!);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(source + '\n'));
  });
});
