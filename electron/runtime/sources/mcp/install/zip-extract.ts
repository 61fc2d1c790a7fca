// Reading entries of a zip whose directory zip-directory.ts has checked: one entry into memory
// with a bound (the manifest), or every entry streamed to disk (after the user's yes). Each entry
// is held to the size its directory declared and to its CRC while it inflates, so a zip that
// lies about its sizes stops at the first byte too many, with memory of one chunk at a time.
import { createReadStream, createWriteStream, mkdirSync, chmodSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw, crc32 } from 'node:zlib';
import type { ZipEntry } from './zip-directory.ts';

const LOCAL = 0x04034b50;

/** Where the entry's data starts (after its local header, whose name and extra lengths may differ from the directory's). */
async function dataStart(file: string, entry: ZipEntry): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(30);
    await handle.read(header, 0, 30, entry.localHeaderOffset);
    if (header.readUInt32LE(0) !== LOCAL) throw new Error(`${entry.name}: its local header is damaged`);
    return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  } finally {
    await handle.close();
  }
}

/** The entry's bytes as they inflate, held to its declared size and CRC. */
async function entryStream(file: string, entry: ZipEntry): Promise<Readable> {
  const start = await dataStart(file, entry);
  const raw = entry.compressedSize > 0 ? createReadStream(file, { start, end: start + entry.compressedSize - 1 }) : Readable.from([]);
  let size = 0;
  let crc = 0;
  const held = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > entry.size) return done(new Error(`${entry.name} unpacks to more than the ${entry.size} bytes its zip directory declares (a zip bomb?)`));
      crc = crc32(chunk, crc);
      done(null, chunk);
    },
    flush(done) {
      if (size !== entry.size) return done(new Error(`${entry.name} unpacks to ${size} bytes, not the ${entry.size} its zip directory declares (a damaged zip)`));
      if (crc >>> 0 !== entry.crc32 >>> 0) return done(new Error(`${entry.name} is damaged (its CRC does not match)`));
      done();
    },
  });
  const inflate = entry.method === 8 ? createInflateRaw() : undefined;
  for (const stage of [raw, inflate]) stage?.on('error', (error: Error) => held.destroy(error));
  // A refused entry stops reading the file at once.
  held.once('close', () => {
    raw.destroy();
    inflate?.destroy();
  });
  return (inflate ? raw.pipe(inflate) : raw).pipe(held);
}

/** One entry in memory, refused when it declares more than `maxBytes`. */
export async function readZipEntry(file: string, entry: ZipEntry, maxBytes: number): Promise<Buffer> {
  if (entry.size > maxBytes) throw new Error(`${entry.name} is ${entry.size} bytes, more than the ${maxBytes} it may have`);
  const parts: Buffer[] = [];
  for await (const chunk of await entryStream(file, entry)) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** Unpacks every entry into `dir` (which must be new), streamed; throws at the first bad entry. */
export async function extractZip(file: string, entries: readonly ZipEntry[], dir: string): Promise<void> {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  for (const entry of entries) {
    const target = resolve(root, entry.name);
    // zip-directory.ts refused names out of the folder; this holds whatever the name was.
    if (target !== root && !target.startsWith(root + sep)) throw new Error(`${entry.name}: a path out of the bundle's folder`);
    if (entry.isDirectory) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    await pipeline(await entryStream(file, entry), createWriteStream(target, { flags: 'wx' }));
    if (entry.mode) chmodSync(target, entry.mode);
  }
}
