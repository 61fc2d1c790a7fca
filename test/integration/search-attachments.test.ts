// Session search also finds text inside attached files (text and PDF copies), bounded in what it
// reads per file, and never reads an image.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionManager } from '../../electron/runtime/chat/persistence/session-manager.ts';
import { ATTACHMENT_SEARCH_BYTES } from '../../electron/runtime/chat/persistence/search-sessions.ts';
import { SessionAttachments } from '../../electron/runtime/chat/persistence/session-attachments.ts';
import { makeManager, tmpHome } from '../support/chat-harness.ts';

const managers: SessionManager[] = [];
afterEach(() => {
  for (const m of managers.splice(0)) m.closeAll();
});

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('search in attached files', () => {
  it('finds a word only an attached text file holds, names the file in the snippet, and after a restart', async () => {
    const home = tmpHome();
    const { manager } = makeManager(home);
    managers.push(manager);
    const session = manager.create();
    const notes = await session.storeAttachment({ name: 'minutes.md', mediaType: 'text/markdown', data: b64('# Meeting\nWe chose the zanzibar option for the launch.\n') }, 'm1-1');
    await (session.send('/echo {"text": "see the file"}', { attachments: [notes] }) as { done: Promise<unknown> }).done;
    const other = manager.create();
    await (other.send('/echo {"text": "nothing here"}') as { done: Promise<unknown> }).done;

    const hits = manager.search('ZANZIBAR');
    expect(hits.map((h) => h.session.id)).toEqual([session.id]);
    expect(hits[0]!.snippet).toBe('minutes.md: We chose the zanzibar option for the launch.');
    expect(hits[0]!.messageId).toBe(session.messages()[0]!.id);
    // A file's name is found too.
    expect(manager.search('minutes').map((h) => h.session.id)).toEqual([session.id]);
    manager.closeAll();
    const again = makeManager(home).manager;
    managers.push(again);
    expect(again.search('zanzibar').map((h) => h.session.id)).toEqual([session.id]);
  });

  it('reads no further than its bound into a file, and never an image', async () => {
    const { manager } = makeManager(tmpHome());
    managers.push(manager);
    const session = manager.create();
    // The session's files, read as search reads them (beside the session file).
    const files = new SessionAttachments(manager.dir, session.id);
    const big = await session.storeAttachment({ name: 'log.txt', mediaType: 'text/plain', data: b64(`${'a'.repeat(ATTACHMENT_SEARCH_BYTES)}\nneedle-late\n`) }, 'm1-1');
    const png = await session.storeAttachment({ name: 'pic.png', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' }, 'm1-2');
    // Text written into the image's copy is not searched: only .txt copies of text and PDFs are.
    writeFileSync(join(files.dir, png.attachment.stored!), 'needle-in-image');
    await (session.send('/echo {"text": "files"}', { attachments: [big, png] }) as { done: Promise<unknown> }).done;
    expect(manager.search('needle-late')).toEqual([]);
    expect(manager.search('needle-in-image')).toEqual([]);
    expect(files.readText(big.attachment.stored!, 10)).toBe('aaaaaaaaaa');
    expect(files.readText('../escape.txt', 10)).toBeNull();
  });
});
