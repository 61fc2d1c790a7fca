// MCP image content in the tool-call block: raster images shown from the result's data; SVG
// (script-capable) and non-base64 data are not.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { ToolResultImages, resultImages } from '../../../renderer/src/chat/tool-result-images.tsx';

afterEach(cleanup);
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('tool result images', () => {
  it('shows PNG content with an alt text naming the tool', () => {
    render(() => <ToolResultImages data={{ text: '[image image/png, 1 KB]', content: [], images: [{ mimeType: 'image/png', data: PNG }] }} toolName="ev__get-tiny-image" />);
    const img = screen.getByRole('img') as HTMLImageElement;
    expect(img.src).toBe(`data:image/png;base64,${PNG}`);
    expect(img.alt).toBe('Image 1 from ev__get-tiny-image (image/png)');
  });

  it('leaves out SVG, broken entries and data that is not base64', () => {
    expect(resultImages({ images: [{ mimeType: 'image/svg+xml', data: PNG }, { mimeType: 'image/png', data: '"><script>' }, null, { mimeType: 'image/png' }] })).toEqual([]);
    expect(resultImages('text')).toEqual([]);
    render(() => <ToolResultImages data={{ images: [{ mimeType: 'image/svg+xml', data: PNG }] }} toolName="t" />);
    expect(screen.queryByTestId('tool-images')).toBeNull();
  });
});
