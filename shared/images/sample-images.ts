import { crc32, deflateSync } from 'node:zlib';

/**
 * Tiny, valid images generated in code, for demo data and tests: no binary fixtures in the repository.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A solid-colour RGB PNG of the given size. */
export function solidPng(width: number, height: number, rgb: readonly [number, number, number] = [230, 57, 70]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: truecolour
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A baseline JPEG header (SOI, JFIF APP0, SOF0 with the dimensions, EOI): enough for header readers. */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof0 = Buffer.from([
    0xff, 0xc0, 0x00, 0x11, 0x08,
    (height >> 8) & 0xff, height & 0xff, (width >> 8) & 0xff, width & 0xff,
    0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.from([0xff, 0xd9])]);
}

/**
 * A valid PNG of exactly `totalBytes` bytes: a solid image plus a private ancillary chunk of filler
 * before IEND (decoders skip it), for tests of size limits without megabytes of pixels.
 */
export function paddedPng(width: number, height: number, totalBytes: number): Buffer {
  const image = solidPng(width, height);
  const iend = image.subarray(image.length - 12);
  const filler = totalBytes - image.length - 12;
  if (filler < 0) throw new Error(`A ${width}x${height} PNG needs at least ${image.length + 12} bytes`);
  return Buffer.concat([image.subarray(0, image.length - 12), pngChunk('prVt', Buffer.alloc(filler, 0x2e)), iend]);
}
