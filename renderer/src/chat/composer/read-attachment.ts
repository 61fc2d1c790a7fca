// Files the user attaches (button, drop, paste) → uploads for sendMessage. Bounded here so a huge
// file is refused with its name before anything is sent; the runtime checks the type again.
import type { AttachmentUpload } from '../../../../shared/api.ts';

export const ATTACH_LIMITS = {
  /** One file, bytes (its base64 must fit the API's 4 MB request). */
  maxFileBytes: 2 * 1024 * 1024,
  /** All files of one message, bytes. */
  maxTotalBytes: 2.8 * 1024 * 1024,
  maxFiles: 10,
} as const;

export interface PendingAttachment {
  upload: AttachmentUpload;
  size: number;
  kind: 'image' | 'text' | 'pdf';
}

const TEXT_NAME = /\.(txt|md|markdown|json|jsonl|ya?ml|toml|csv|tsv|xml|html?|css|js|mjs|cjs|ts|tsx|jsx|py|ps1|sh|bash|rs|go|java|kt|c|h|cpp|hpp|cs|rb|php|sql|ini|cfg|conf|log)$/i;

export function kindOf(file: { name: string; type: string }): PendingAttachment['kind'] | null {
  if (file.type.startsWith('image/')) return 'image';
  if (file.type === 'application/pdf' || /\.pdf$/i.test(file.name)) return 'pdf';
  if (file.type.startsWith('text/') || /^application\/(json|xml|javascript|x-yaml|yaml|toml|x-sh|sql)/.test(file.type) || TEXT_NAME.test(file.name)) return 'text';
  return null;
}

const formatSize = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`);

/** Bytes as base64, in chunks (a spread of a whole large file would overflow the stack). */
export function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Why one more file of `size` bytes cannot join `already` (the message's files so far), or null. */
function refusal(name: string, size: number, kind: PendingAttachment['kind'] | null, already: PendingAttachment[]): string | null {
  if (!kind) return `${name}: attach images, text files or PDFs.`;
  if (already.length >= ATTACH_LIMITS.maxFiles) return `${name}: at most ${ATTACH_LIMITS.maxFiles} files per message.`;
  if (size > ATTACH_LIMITS.maxFileBytes) return `${name} is ${formatSize(size)}; files up to ${formatSize(ATTACH_LIMITS.maxFileBytes)} can be attached.`;
  const total = already.reduce((n, a) => n + a.size, 0);
  if (total + size > ATTACH_LIMITS.maxTotalBytes) return `${name}: the files of one message may add up to ${formatSize(ATTACH_LIMITS.maxTotalBytes)}.`;
  return null;
}

/** Reads files into uploads; each refused file gets a one-line reason naming it. */
export async function readAttachments(files: File[], already: PendingAttachment[]): Promise<{ added: PendingAttachment[]; problems: string[] }> {
  const added: PendingAttachment[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const kind = kindOf(file);
    const refused = refusal(file.name, file.size, kind, [...already, ...added]);
    if (refused || !kind) {
      problems.push(refused ?? `${file.name}: attach images, text files or PDFs.`);
      continue;
    }
    const name = file.name || (kind === 'image' ? `pasted-image.${file.type.split('/')[1] ?? 'png'}` : 'pasted.txt');
    added.push({ kind, size: file.size, upload: { name, mediaType: file.type || (kind === 'pdf' ? 'application/pdf' : 'text/plain'), data: toBase64(await file.arrayBuffer()) } });
  }
  return { added, problems };
}

/** Uploads made elsewhere (an MCP resource read by the runtime), under the same bounds as files. */
export function admitUploads(uploads: AttachmentUpload[], already: PendingAttachment[]): { added: PendingAttachment[]; problems: string[] } {
  const added: PendingAttachment[] = [];
  const problems: string[] = [];
  for (const upload of uploads) {
    const size = Math.floor((upload.data.replace(/=+$/, '').length * 3) / 4);
    const kind = kindOf({ name: upload.name, type: upload.mediaType });
    const refused = refusal(upload.name, size, kind, [...already, ...added]);
    if (refused || !kind) problems.push(refused ?? `${upload.name}: attach images, text files or PDFs.`);
    else added.push({ kind, size, upload });
  }
  return { added, problems };
}

export { formatSize };
