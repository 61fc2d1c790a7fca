// A tool call's images kept by the session: bounded in number, size and type, each refusal named;
// stored under the session's files folder and read back only by a plain file name.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionAttachments, TOOL_IMAGE_LIMITS } from '../../../electron/runtime/chat/persistence/session-attachments.ts';
import type { ToolResultMessage } from '../../../shared/chat.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const png = (size = 70) => ({ mimeType: 'image/png', size, data: PNG });

describe('tool images in a session', () => {
  it('keeps raster images as files and names what it did not keep', () => {
    const files = new SessionAttachments(mkdtempSync(join(tmpdir(), 'td-img-')), 's1');
    const kept = files.storeToolImages(
      [png(), { mimeType: 'image/svg+xml', size: 10, data: 'PHN2Zz4=' }, png(TOOL_IMAGE_LIMITS.maxBytes + 1), { mimeType: 'image/jpeg', size: 0, data: '' }],
      'tool-call/../x',
    );
    expect(kept[0]).toEqual({ mimeType: 'image/png', size: 70, stored: 'tool-call_.._x-image-1.png' });
    expect(existsSync(join(files.dir, kept[0]!.stored!))).toBe(true);
    expect(kept[1]).toMatchObject({ note: expect.stringMatching(/PNG, JPEG, GIF or WebP images, not image\/svg\+xml/) });
    expect(kept[2]).toMatchObject({ note: expect.stringMatching(/over the 5 MB bound/) });
    expect(kept[3]).toMatchObject({ note: expect.stringMatching(/empty or not base64/) });
    for (const image of kept) expect(image.data).toBeUndefined();
    const many = files.storeToolImages(Array.from({ length: TOOL_IMAGE_LIMITS.maxPerCall + 2 }, () => png()), 'p');
    expect(many.filter((i) => i.stored)).toHaveLength(TOOL_IMAGE_LIMITS.maxPerCall);
    expect(many.at(-1)!.note).toMatch(/at most 8 images/);
  });

  it('keeps an earlier call\'s image when a later call has the same id (servers that send none get call_0)', () => {
    const files = new SessionAttachments(mkdtempSync(join(tmpdir(), 'td-img-')), 's3');
    const [first] = files.storeToolImages([png()], 'tool-call_0');
    const GIF = 'R0lGODlhAQABAAAAACw=';
    const [second] = files.storeToolImages([{ mimeType: 'image/png', size: 14, data: GIF }], 'tool-call_0');
    expect(second!.stored).not.toBe(first!.stored);
    expect(files.read(first!.stored!)?.toString('base64')).toBe(PNG);
    expect(files.read(second!.stored!)?.toString('base64')).toBe(GIF);
  });

  it('reads back by plain name only; a missing file becomes a note for the model', () => {
    const files = new SessionAttachments(mkdtempSync(join(tmpdir(), 'td-img-')), 's2');
    const [image] = files.storeToolImages([png()], 'c');
    expect(files.read(image!.stored!)?.toString('base64')).toBe(PNG);
    expect(files.read('../s2.jsonl')).toBeNull();
    expect(files.read('.hidden')).toBeNull();
    const message: ToolResultMessage = { id: 'm', createdAt: 1, role: 'tool', callId: 'c', toolName: 't', content: '', result: { status: 'SUCCESS', finalText: '', images: [image!, { mimeType: 'image/png', size: 1, stored: 'gone.png' }, { mimeType: 'image/svg+xml', size: 1, note: 'not kept' }] } };
    expect(files.toolImageParts(message)).toEqual([
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'text', text: '[Image 2 of this call: no longer available.]' },
    ]);
  });
});
