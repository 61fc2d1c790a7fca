// Tool result images in the tool-call block: the session's stored copies are loaded and shown,
// images in older sessions' data too; SVG (script-capable) and non-base64 data are not shown, and
// an image the session did not keep is named with the reason.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@solidjs/testing-library';
import { ToolResultImages, resultImages } from '../../../renderer/src/chat/tool-calls/tool-result-images.tsx';

afterEach(cleanup);
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('tool result images', () => {
  it('loads a stored image through the API and shows it with an alt text naming the tool', async () => {
    const load = vi.fn(async (stored: string) => ({ mimeType: 'image/png', data: stored === 'tool-c1-image-1.png' ? PNG : '' }));
    render(() => <ToolResultImages result={{ images: [{ mimeType: 'image/png', size: 70, stored: 'tool-c1-image-1.png' }] }} toolName="ev__get-tiny-image" load={load} />);
    const img = (await screen.findByRole('img')) as HTMLImageElement;
    expect(load).toHaveBeenCalledWith('tool-c1-image-1.png');
    expect(img.src).toBe(`data:image/png;base64,${PNG}`);
    expect(img.alt).toBe('Image 1 from ev__get-tiny-image (image/png)');
  });

  it('says which images were not kept, and why; a failed load is named, not thrown', async () => {
    const load = async () => {
      throw new Error('no tool image');
    };
    render(() => (
      <ToolResultImages
        result={{ images: [{ mimeType: 'image/svg+xml', size: 10, note: 'not kept: models take PNG, JPEG, GIF or WebP images, not image/svg+xml' }, { mimeType: 'image/png', size: 70, stored: 'gone.png' }] }}
        toolName="t"
        load={load}
      />
    ));
    expect(screen.getByTestId('tool-image-notes').textContent).toContain('Image 1 from t (image/svg+xml): not kept: models take PNG');
    await waitFor(() => expect(screen.getByTestId('tool-images').textContent).toContain('not available (no tool image)'));
  });

  it('older sessions: images in the data are shown, SVG, broken entries and non-base64 data are not', () => {
    render(() => <ToolResultImages result={{ data: { text: '[image image/png, 1 KB]', content: [], images: [{ mimeType: 'image/png', data: PNG }] } }} toolName="ev__get-tiny-image" />);
    expect((screen.getByRole('img') as HTMLImageElement).src).toBe(`data:image/png;base64,${PNG}`);
    cleanup();
    expect(resultImages({ images: [{ mimeType: 'image/svg+xml', data: PNG }, { mimeType: 'image/png', data: '"><script>' }, null, { mimeType: 'image/png' }] })).toEqual([]);
    expect(resultImages('text')).toEqual([]);
    render(() => <ToolResultImages result={{ data: { images: [{ mimeType: 'image/svg+xml', data: PNG }] } }} toolName="t" />);
    expect(screen.queryByTestId('tool-images')).toBeNull();
  });
});
