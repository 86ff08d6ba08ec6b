import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Reading chosen entries of a zip archive a user uploaded (an XLSX) with node:zlib alone. The central directory
 * says where entries are (local headers may leave sizes to a data descriptor); what is inflated across all the
 * entries read stays under one budget, so a zip bomb fails after at most that many bytes instead of filling
 * the memory. ZIP64 and encryption are refused: no spreadsheet an SMS service exports needs them.
 */
export class ZipReadError extends Error {
  override name = 'ZipReadError';
  constructor(
    readonly code: 'broken' | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

type ZipEntry = {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
};

export type ZipReader = {
  has(name: string): boolean;
  /** Refuses before inflating anything when the sizes the directory declares for these entries are over the budget. */
  checkDeclared(names: string[]): void;
  read(name: string): Buffer;
};

const END = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** An entry inflating to more than this many times its compressed size, and past MAX_RATIO_BYTES, is a bomb. */
const MAX_RATIO = 200;
const MAX_RATIO_BYTES = 10 * 1024 * 1024;

const broken = (message: string) => new ZipReadError('broken', message);

function centralDirectory(zip: Buffer): Map<string, ZipEntry> {
  // The end record is 22 bytes and may be followed by a comment of up to 64 KB: search backwards.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) throw broken('The ZIP archive has no end record.');
  const count = zip.readUInt16LE(end + 10);
  const dirSize = zip.readUInt32LE(end + 12);
  const dirOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    throw broken('ZIP64 archives are not supported.');
  }
  if (dirOffset + dirSize > end) throw broken('The ZIP archive is truncated.');
  const entries = new Map<string, ZipEntry>();
  let p = dirOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || zip.readUInt32LE(p) !== CENTRAL)
      throw broken('The ZIP central directory is damaged.');
    const nameLength = zip.readUInt16LE(p + 28);
    const next = p + 46 + nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
    if (next > end) throw broken('The ZIP central directory is damaged.');
    const entry: ZipEntry = {
      name: zip.toString('utf8', p + 46, p + 46 + nameLength),
      flags: zip.readUInt16LE(p + 8),
      method: zip.readUInt16LE(p + 10),
      crc: zip.readUInt32LE(p + 16),
      compressedSize: zip.readUInt32LE(p + 20),
      size: zip.readUInt32LE(p + 24),
      localOffset: zip.readUInt32LE(p + 42),
    };
    if (
      entry.size === 0xffffffff ||
      entry.compressedSize === 0xffffffff ||
      entry.localOffset === 0xffffffff
    ) {
      throw broken('ZIP64 archives are not supported.');
    }
    // Part names in an OPC package (XLSX) compare case-insensitively; the first of duplicates wins.
    const key = entry.name.toLowerCase();
    if (!entries.has(key)) entries.set(key, entry);
    p = next;
  }
  return entries;
}

export function openZip(zip: Buffer, maxUnzippedBytes: number): ZipReader {
  const entries = centralDirectory(zip);
  let left = maxUnzippedBytes;
  const entry = (name: string) => {
    const found = entries.get(name.toLowerCase());
    if (!found) throw broken(`The ZIP archive has no ${name}.`);
    return found;
  };
  const tooLarge = () => new ZipReadError('too_large', 'The workbook unpacks to more data than allowed.');
  return {
    has: (name) => entries.has(name.toLowerCase()),
    checkDeclared(names) {
      const declared = names.reduce((sum, name) => sum + (entries.get(name.toLowerCase())?.size ?? 0), 0);
      if (declared > maxUnzippedBytes) throw tooLarge();
    },
    read(name) {
      const e = entry(name);
      if (e.flags & 1) throw broken('Encrypted workbooks are not supported.');
      if (e.size > left || (e.size > MAX_RATIO * e.compressedSize && e.size > MAX_RATIO_BYTES))
        throw tooLarge();
      const at = e.localOffset;
      if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw broken('The ZIP archive is damaged.');
      const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
      if (start + e.compressedSize > zip.length) throw broken('The ZIP archive is truncated.');
      const raw = zip.subarray(start, start + e.compressedSize);
      let data: Buffer;
      if (e.method === 0) {
        data = raw;
      } else if (e.method === 8) {
        try {
          // The declared size may lie: the budget, not the header, bounds what inflating may produce.
          data = inflateRawSync(raw, { maxOutputLength: Math.max(1, left) });
        } catch (err) {
          if (err instanceof RangeError) throw tooLarge();
          throw broken('The ZIP archive is damaged.');
        }
      } else {
        throw broken(`The ZIP compression method ${e.method} is not supported.`);
      }
      if (data.length > left) throw tooLarge();
      if (data.length !== e.size || crc32(data) !== e.crc) throw broken('The ZIP archive is damaged.');
      left -= data.length;
      return data;
    },
  };
}
