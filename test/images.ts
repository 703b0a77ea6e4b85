// Images built byte by byte for the upload tests: whole ones of each type, and ways to spoil them.
import { crc32 } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG: signature, IHDR, one IDAT of `dataBytes` bytes, IEND, every CRC right. */
export function png(dataBytes = 13): Buffer {
  const ihdr = Buffer.from('000000010000000108060000 00'.replace(/ /g, ''), 'hex');
  const idat = Buffer.alloc(dataBytes, 0x5a);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A 1x1 GIF89a with a graphic control extension. */
export const GIF = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');

/** A baseline JPEG's segments: SOI, APP0, DQT, SOF0, DHT, SOS with entropy-coded data (a stuffed 0xff00 and a restart marker), EOI. */
export const JPEG = Buffer.concat([
  Buffer.from('ffd8', 'hex'),
  Buffer.from('ffe000104a46494600010100000100010000', 'hex'),
  Buffer.from('ffdb004300', 'hex'),
  Buffer.alloc(64, 1),
  Buffer.from('ffc0000b080001000101011100', 'hex'),
  Buffer.concat([Buffer.from('ffc4001300', 'hex'), Buffer.alloc(16)]),
  Buffer.from('ffda0008010100003f00', 'hex'),
  Buffer.from('d2cf20ff0012ffd03456', 'hex'),
  Buffer.from('ffd9', 'hex'),
]);

/** A 1x1 lossless WebP (RIFF, WEBP, VP8L). */
export const WEBP = Buffer.concat([
  Buffer.from('RIFF', 'latin1'),
  Buffer.from('1a000000', 'hex'),
  Buffer.from('WEBPVP8L', 'latin1'),
  Buffer.from('0d0000002f00000010071011118888fe0700', 'hex'),
]);
