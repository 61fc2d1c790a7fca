// The table of contents of a `.mcpb` (zip) file, read from its central directory without
// inflating anything, and checked against bounds before a byte is written: the entry count, the
// total uncompressed size and the compression ratio (a zip bomb holds gigabytes of zeros in a
// few megabytes). Sizes a zip declares may lie: zip-extract.ts holds each entry to its declared
// size while inflating. Only what a bundle needs is read: stored or deflated entries, no zip64,
// no encryption, an optional MCPB signature block after the archive.
import { open } from 'node:fs/promises';
import { posix } from 'node:path';

export const ZIP_LIMITS = {
  /** Files and folders in one bundle (a server with its node_modules has a few thousand). */
  entries: 50_000,
  /** Everything unpacked together. */
  totalBytes: 1024 * 1024 * 1024,
  /** Uncompressed ÷ compressed, for the whole archive and for each entry over `ratioFloorBytes`. */
  ratio: 100,
  ratioFloorBytes: 1024 * 1024,
};

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  /** Unix permission bits (0 when the zip gives none). */
  mode: number;
  isDirectory: boolean;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Sum of the entries' declared uncompressed sizes. */
  totalBytes: number;
  /** Bytes of the zip itself (without a signature block after it). */
  archiveBytes: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const SIGNATURE_HEADER = Buffer.from('MCPB_SIG_V1');
/** The end record (22 bytes) plus the longest comment, plus room for a signature block after it. */
const TAIL_BYTES = 22 + 0xffff + 256 * 1024;

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** Reads and checks the central directory of `file`; `{error}` says what is wrong, for the user. */
export async function readZipDirectory(file: string, limits = ZIP_LIMITS): Promise<ZipDirectory | { error: string }> {
  const handle = await open(file, 'r');
  try {
    const fileBytes = (await handle.stat()).size;
    const tailStart = Math.max(0, fileBytes - TAIL_BYTES);
    const tail = Buffer.alloc(fileBytes - tailStart);
    await handle.read(tail, 0, tail.length, tailStart);
    // A signed bundle carries its signature after the zip: the archive ends where it starts.
    const signatureAt = tail.lastIndexOf(SIGNATURE_HEADER);
    const archiveEnd = signatureAt === -1 ? tail.length : signatureAt;
    let eocd = -1;
    for (let i = archiveEnd - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd === -1) return { error: 'it is not a zip file (no end of central directory record)' };
    const count = tail.readUInt16LE(eocd + 10);
    const directoryBytes = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || directoryBytes === 0xffffffff || directoryOffset === 0xffffffff) return { error: 'it is a zip64 archive (over 4 GB or 65535 files), more than a bundle may be' };
    if (count > limits.entries) return { error: `it holds ${count} files, more than the ${limits.entries} a bundle may have` };
    const archiveBytes = tailStart + archiveEnd;
    if (directoryOffset + directoryBytes > archiveBytes) return { error: 'its central directory lies outside the file (a damaged zip)' };
    const directory = Buffer.alloc(directoryBytes);
    await handle.read(directory, 0, directoryBytes, directoryOffset);
    const entries: ZipEntry[] = [];
    let totalBytes = 0;
    let at = 0;
    for (let i = 0; i < count; i++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL) return { error: `its central directory is damaged at entry ${i + 1}` };
      const flags = directory.readUInt16LE(at + 8);
      const nameLength = directory.readUInt16LE(at + 28);
      const entry: ZipEntry = {
        name: directory.toString('utf8', at + 46, at + 46 + nameLength),
        method: directory.readUInt16LE(at + 10),
        crc32: directory.readUInt32LE(at + 16),
        compressedSize: directory.readUInt32LE(at + 20),
        size: directory.readUInt32LE(at + 24),
        localHeaderOffset: directory.readUInt32LE(at + 42),
        mode: (directory.readUInt32LE(at + 38) >>> 16) & 0o777,
        isDirectory: false,
      };
      entry.isDirectory = entry.name.endsWith('/');
      at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
      if (flags & 1) return { error: `${entry.name} is encrypted` };
      if (entry.method !== 0 && entry.method !== 8) return { error: `${entry.name} uses compression method ${entry.method} (only stored and deflated files are read)` };
      if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff || entry.localHeaderOffset === 0xffffffff) return { error: `${entry.name} needs zip64, more than a bundle may be` };
      if (entry.localHeaderOffset + entry.compressedSize > archiveBytes) return { error: `${entry.name} lies outside the file (a damaged zip)` };
      const unsafe = unsafeName(entry.name);
      if (unsafe) return { error: `${entry.name}: ${unsafe}` };
      if (entry.size > limits.ratioFloorBytes && entry.size > limits.ratio * Math.max(1, entry.compressedSize)) {
        return { error: `${entry.name} unpacks to ${mib(entry.size)} from ${entry.compressedSize} bytes (more than ${limits.ratio} times its packed size: a zip bomb?)` };
      }
      totalBytes += entry.size;
      if (totalBytes > limits.totalBytes) return { error: `it unpacks to more than ${mib(limits.totalBytes)}, more than a bundle may be` };
      entries.push(entry);
    }
    if (totalBytes > limits.ratioFloorBytes && totalBytes > limits.ratio * archiveBytes) {
      return { error: `it unpacks to ${mib(totalBytes)} from ${mib(archiveBytes)} (more than ${limits.ratio} times its size: a zip bomb?)` };
    }
    return { entries, totalBytes, archiveBytes };
  } finally {
    await handle.close();
  }
}

/** Why an entry's name cannot be unpacked (a path out of the folder), or undefined. */
function unsafeName(name: string): string | undefined {
  if (name === '' || name.includes('\0') || name.includes('\\')) return 'not a plain file name';
  if (name.startsWith('/')) return 'an absolute path';
  const normal = posix.normalize(name);
  if (normal === '..' || normal.startsWith('../')) return 'a path out of the bundle\'s folder';
  return undefined;
}
