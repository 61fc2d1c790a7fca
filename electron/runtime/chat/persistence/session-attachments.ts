// A session's attachments: each file sent with a message is kept under
// `<sessions>/<id>.files/` (images as they came, text and PDFs as their extracted text), so a
// reopened session sends the model the same parts. The model gets text bounded to
// `maxTextChars`; the whole text goes into a variable the model can read in slices.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attachment, ToolResultMessage, UserMessage } from '../../../../shared/chat.ts';
import type { AttachmentUpload } from '../../../../shared/api.ts';
import type { ToolResultImage } from '../../../../shared/tools.ts';
import type { LlmContentPart } from '../../llm/types.ts';
import { extractPdfText } from './extract-pdf-text.ts';

export const ATTACHMENT_LIMITS = {
  /** Text of one attachment the model gets inline (characters); the rest is in its variable. */
  maxTextChars: 20_000,
} as const;

/** Bounds of the images a tool call may leave in a session (and send to the model on every later turn). */
export const TOOL_IMAGE_LIMITS = {
  /** Decoded bytes of one image. */
  maxBytes: 5 * 1024 * 1024,
  /** Images kept per call; the rest are named, not kept. */
  maxPerCall: 8,
} as const;

/** The image types vision models take (OpenAI, Anthropic, Gemini, Ollama agree on these). */
const MODEL_IMAGE_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/jpg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** What an upload becomes: the chip, plus the whole text for a variable (text and PDF). */
export interface StoredAttachment {
  attachment: Attachment;
  text?: string;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml|javascript|typescript|x-sh|toml|csv|sql))/;
const TEXT_NAMES = /\.(txt|md|markdown|json|jsonl|ya?ml|toml|csv|tsv|xml|html?|css|js|mjs|cjs|ts|tsx|jsx|py|ps1|sh|bash|rs|go|java|kt|c|h|cpp|hpp|cs|rb|php|sql|ini|cfg|conf|log|env\.example)$/i;

export function attachmentKind(upload: { name: string; mediaType: string }): Attachment['kind'] | null {
  if (upload.mediaType.startsWith('image/')) return 'image';
  if (upload.mediaType === 'application/pdf' || /\.pdf$/i.test(upload.name)) return 'pdf';
  if (TEXT_TYPES.test(upload.mediaType) || TEXT_NAMES.test(upload.name)) return 'text';
  return null;
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '').slice(0, 80) || 'file';

export class SessionAttachments {
  readonly dir: string;

  constructor(sessionsDir: string, sessionId: string) {
    this.dir = join(sessionsDir, `${sessionId}.files`);
  }

  /**
   * Stores one upload. `prefix` keeps names unique (the message id and the index). Throws with a
   * message for the user (unsupported type, unreadable PDF, no text).
   */
  async store(upload: AttachmentUpload, prefix: string): Promise<StoredAttachment> {
    const kind = attachmentKind(upload);
    if (!kind) throw new Error(`${upload.name}: attach images, text files or PDFs (this is ${upload.mediaType || 'an unknown type'}).`);
    const bytes = Buffer.from(upload.data, 'base64');
    mkdirSync(this.dir, { recursive: true });
    const file = `${prefix}-${safeName(upload.name)}`;
    const base: Attachment = { name: upload.name, kind, mediaType: upload.mediaType || (kind === 'pdf' ? 'application/pdf' : 'text/plain'), size: bytes.length };
    if (kind === 'image') {
      writeFileSync(join(this.dir, file), bytes);
      return { attachment: { ...base, stored: file } };
    }
    let text: string;
    if (kind === 'pdf') {
      const pdf = await extractPdfText(new Uint8Array(bytes));
      if (!pdf.ok) throw new Error(`${upload.name}: the PDF could not be read (${pdf.error}).`);
      if (!pdf.text) throw new Error(`${upload.name}: the PDF has no text to read (a scan? attach its pages as images instead).`);
      text = pdf.text;
    } else {
      text = bytes.toString('utf8');
      if (text.includes('\u0000')) throw new Error(`${upload.name}: this looks like a binary file, not text.`);
    }
    writeFileSync(join(this.dir, `${file}.txt`), text);
    return { attachment: { ...base, stored: `${file}.txt`, chars: text.length, ...(text.length > ATTACHMENT_LIMITS.maxTextChars ? { truncated: true } : {}) }, text };
  }

  /**
   * Keeps a tool call's images as files of the session (bounded by TOOL_IMAGE_LIMITS); what comes
   * back has no bytes, only the file name, or a note saying why an image was not kept.
   */
  storeToolImages(images: ToolResultImage[], prefix: string): ToolResultImage[] {
    const safePrefix = safeName(prefix);
    return images.map((image, index): ToolResultImage => {
      const { data: _bytes, ...rest } = image;
      const extension = MODEL_IMAGE_TYPES[image.mimeType.toLowerCase()];
      if (index >= TOOL_IMAGE_LIMITS.maxPerCall) return { ...rest, note: `not kept: a call keeps at most ${TOOL_IMAGE_LIMITS.maxPerCall} images` };
      if (!extension) return { ...rest, note: `not kept: models take PNG, JPEG, GIF or WebP images, not ${image.mimeType}` };
      if (image.size > TOOL_IMAGE_LIMITS.maxBytes) return { ...rest, note: `not kept: ${Math.round(image.size / 1024)} KB is over the ${TOOL_IMAGE_LIMITS.maxBytes / 1024 / 1024} MB bound for a tool's image` };
      const bytes = Buffer.from(image.data ?? '', 'base64');
      if (bytes.length === 0) return { ...rest, note: 'not kept: the image is empty or not base64' };
      mkdirSync(this.dir, { recursive: true });
      const file = this.#freeName(`${safePrefix}-image-${index + 1}`, extension);
      writeFileSync(join(this.dir, file), bytes, { flag: 'wx' });
      return { mimeType: image.mimeType, size: bytes.length, stored: file };
    });
  }

  /**
   * `base.ext`, or `base-2.ext`… when taken: call ids repeat across turns (servers that send none
   * get `call_0`), and an earlier call's image must stay its own.
   */
  #freeName(base: string, extension: string): string {
    for (let n = 1; ; n++) {
      const name = n === 1 ? `${base}.${extension}` : `${base}-${n}.${extension}`;
      if (!existsSync(join(this.dir, name))) return name;
    }
  }

  /** A stored file's bytes; null when it is missing or the name points outside the folder. */
  read(stored: string): Buffer | null {
    if (!/^[A-Za-z0-9._-]+$/.test(stored) || stored.startsWith('.')) return null;
    try {
      return readFileSync(join(this.dir, stored));
    } catch {
      return null;
    }
  }

  /**
   * The start of a stored text or PDF attachment's text (its `.txt` copy), at most `maxBytes`;
   * null for any other file, or one missing. Search reads attachments through this.
   */
  readText(stored: string, maxBytes: number): string | null {
    if (!/^[A-Za-z0-9._-]+\.txt$/.test(stored) || stored.startsWith('.')) return null;
    let fd: number | undefined;
    try {
      fd = openSync(join(this.dir, stored), 'r');
      const buffer = Buffer.alloc(maxBytes);
      return buffer.subarray(0, readSync(fd, buffer, 0, maxBytes, 0)).toString('utf8');
    } catch {
      return null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** The image parts of a tool result, from the session's copies (one that went missing is named). */
  toolImageParts(message: ToolResultMessage): LlmContentPart[] {
    const parts: LlmContentPart[] = [];
    for (const [index, image] of (message.result.images ?? []).entries()) {
      if (!image.stored) continue;
      const data = this.read(image.stored);
      parts.push(data ? { type: 'image', mediaType: image.mimeType, data: data.toString('base64') } : { type: 'text', text: `[Image ${index + 1} of this call: no longer available.]` });
    }
    return parts;
  }

  /** The parts the model gets for a message's attachments (files that went missing are named, not fatal). */
  parts(message: UserMessage): LlmContentPart[] {
    const parts: LlmContentPart[] = [];
    for (const a of message.attachments ?? []) {
      let data: Buffer | null = null;
      try {
        data = a.stored ? readFileSync(join(this.dir, a.stored)) : null;
      } catch {
        data = null;
      }
      if (!data) {
        parts.push({ type: 'text', text: `[Attached file ${a.name}: no longer available.]` });
      } else if (a.kind === 'image') {
        // Sent whatever the model: the UI warns when the model is not known to accept images,
        // and a provider that refuses them says so in its error.
        parts.push({ type: 'image', mediaType: a.mediaType, data: data.toString('base64') });
      } else {
        const text = data.toString('utf8');
        const shown = text.length > ATTACHMENT_LIMITS.maxTextChars ? text.slice(0, ATTACHMENT_LIMITS.maxTextChars) : text;
        const where = a.variable ? ` The whole text is in the variable $${a.variable}.` : '';
        const note = shown.length < text.length ? ` (the first ${shown.length} of ${text.length} characters)${where}` : '';
        parts.push({ type: 'text', text: `Attached file ${a.name}${note}:\n\n${shown}` });
      }
    }
    return parts;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
