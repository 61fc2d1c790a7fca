// A `.mcpb` zip bomb built in the test: a valid manifest and one entry of zeros whose deflate
// stream is one compressed MiB of zeros repeated (each piece ends on a full flush, so the pieces
// chain into one valid stream), about 1 KB per MiB. `declaredBytes` lets the zip lie about the
// entry's size in its directory (a bomb that passes a check of declared sizes only).
import { writeFileSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

const MIB = 1024 * 1024;

interface Entry {
  name: string;
  method: 0 | 8;
  data: Buffer[];
  compressedSize: number;
  size: number;
  crc: number;
}

function stored(name: string, text: string): Entry {
  const data = Buffer.from(text);
  return { name, method: 0, data: [data], compressedSize: data.length, size: data.length, crc: crc32(data) };
}

function zeros(name: string, mib: number, declaredBytes?: number): Entry {
  const zero = Buffer.alloc(MIB);
  const piece = deflateRawSync(zero, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const final = Buffer.from([0x03, 0x00]); // an empty last block ends the stream
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(zero, crc);
  const data = [...Array.from({ length: mib }, () => piece), final];
  return { name, method: 8, data, compressedSize: piece.length * mib + final.length, size: declaredBytes ?? mib * MIB, crc };
}

/** Writes the bomb to `file`; returns its size in bytes. */
export function writeZipBomb(file: string, manifest: Record<string, unknown>, options: { zerosMiB: number; declaredBytes?: number }): number {
  const entries = [stored('manifest.json', JSON.stringify(manifest)), zeros('server/zeros.bin', options.zerosMiB, options.declaredBytes)];
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.compressedSize, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(0x031e, 4); // made by Unix
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(e.method, 10);
    header.writeUInt32LE(e.crc >>> 0, 16);
    header.writeUInt32LE(e.compressedSize, 20);
    header.writeUInt32LE(e.size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, ...e.data);
    offset += local.length + name.length + e.compressedSize;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  const all = Buffer.concat([...parts, directory, end]);
  writeFileSync(file, all);
  return all.length;
}
