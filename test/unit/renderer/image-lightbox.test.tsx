// Thumbnails of attached images, and the lightbox tool images and thumbnails open in.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { ToolResultImages } from '../../../renderer/src/chat/tool-calls/tool-result-images.tsx';
import { AttachmentChips } from '../../../renderer/src/chat/composer/attachment-chips.tsx';
import { imageSrc } from '../../../renderer/src/ui/image-lightbox.tsx';
import { closeTopLayer, openLayerCount } from '../../../renderer/src/ui/layers.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('imageSrc', () => {
  it('makes a data: URL of raster images only', () => {
    expect(imageSrc({ mimeType: 'image/png', data: PNG })).toBe(`data:image/png;base64,${PNG}`);
    expect(imageSrc({ mimeType: 'image/svg+xml', data: PNG })).toBeNull();
    expect(imageSrc({ mimeType: 'image/png', data: 'not base64!' })).toBeNull();
  });
});

describe('tool image lightbox', () => {
  it('a tool image opens large; zoom steps; Save downloads it; Esc closes the lightbox only', async () => {
    render(() => <ToolResultImages result={{ images: [{ mimeType: 'image/png', size: 70, data: PNG }] }} toolName="shot" />);
    fireEvent.click(screen.getByRole('button', { name: 'Image 1 from shot (image/png)' }));
    const box = await screen.findByTestId('image-lightbox');
    expect(box).toHaveAccessibleName('image-1-from-shot.png');
    expect(screen.getByTestId('lightbox-zoom')).toHaveTextContent('Fit');
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByTestId('lightbox-zoom')).toHaveTextContent('150%');
    fireEvent.keyDown(box, { key: '-' });
    expect(screen.getByTestId('lightbox-zoom')).toHaveTextContent('100%');
    fireEvent.click(screen.getByRole('button', { name: 'Fit' }));
    expect(screen.getByTestId('lightbox-zoom')).toHaveTextContent('Fit');
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('image-1-from-shot.png');
      expect(this.href).toBe(`data:image/png;base64,${PNG}`);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(click).toHaveBeenCalledTimes(1);
    click.mockRestore();
    // The lightbox is one layer: Esc closes it, and then no layer is left to close.
    expect(openLayerCount()).toBe(1);
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('image-lightbox')).toBeNull());
    expect(openLayerCount()).toBe(0);
    expect(closeTopLayer()).toBe(false);
  });
});

describe('attachment thumbnails', () => {
  it('an image picked in the composer shows its picture; a sent one loads it from the session; text files keep their kind', async () => {
    const load = vi.fn(async () => ({ mimeType: 'image/png', data: PNG }));
    render(() => (
      <AttachmentChips
        items={[
          { name: 'new.png', kind: 'image', size: 70, preview: { mimeType: 'image/png', data: PNG } },
          { name: 'sent.png', kind: 'image', size: 70, stored: 'm1-1-sent.png' },
          { name: 'notes.txt', kind: 'text', size: 5, stored: 'm1-2-notes.txt' },
        ]}
        loadImage={load}
      />
    ));
    expect(screen.getByRole('img', { name: 'new.png' })).toHaveAttribute('src', `data:image/png;base64,${PNG}`);
    expect(await screen.findByRole('img', { name: 'sent.png' })).toHaveAttribute('src', `data:image/png;base64,${PNG}`);
    expect(load).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledWith('m1-1-sent.png');
    expect(screen.getAllByTestId('attachment-chip')[2]).toHaveTextContent('Text');
    fireEvent.click(screen.getAllByTestId('attachment-thumb')[1]!);
    expect(await screen.findByTestId('image-lightbox')).toHaveAccessibleName('sent.png');
  });
});
