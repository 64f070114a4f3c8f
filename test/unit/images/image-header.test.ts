import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_DIMENSION, readJpegDimensions, readPngDimensions } from '../../../shared/images/image-header.js';
import { jpegHeader, solidPng } from '../../../shared/images/sample-images.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer, crc?: number): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const check = Buffer.alloc(4);
  check.writeUInt32BE(crc ?? crc32(typeAndData));
  return Buffer.concat([length, typeAndData, check]);
}

interface Ihdr { width: number; height: number; bitDepth: number; colourType: number; compression: number; filter: number; interlace: number }

/** A PNG whose IHDR holds exactly the given fields (CRC correct unless given), followed by IEND. */
function png(fields: Partial<Ihdr> = {}, options: { crc?: number; before?: Buffer } = {}): Buffer {
  const f: Ihdr = { width: 10, height: 20, bitDepth: 8, colourType: 2, compression: 0, filter: 0, interlace: 0, ...fields };
  const data = Buffer.alloc(13);
  data.writeUInt32BE(f.width, 0);
  data.writeUInt32BE(f.height, 4);
  data.set([f.bitDepth, f.colourType, f.compression, f.filter, f.interlace], 8);
  return Buffer.concat([PNG_SIGNATURE, options.before ?? Buffer.alloc(0), chunk('IHDR', data, options.crc), chunk('IEND', Buffer.alloc(0))]);
}

const segment = (marker: number, payload: number[]) => [0xff, marker, ((payload.length + 2) >> 8) & 0xff, (payload.length + 2) & 0xff, ...payload];
const sof = (marker: number, width: number, height: number, components = 3) =>
  segment(marker, [8, (height >> 8) & 0xff, height & 0xff, (width >> 8) & 0xff, width & 0xff, components, ...Array.from({ length: components }, (_, i) => [i + 1, 0x11, 0]).flat()]);
const jpeg = (...parts: number[][]) => Buffer.from([0xff, 0xd8, ...parts.flat(), 0xff, 0xd9]);

describe('readPngDimensions', () => {
  it('reads width and height from a real PNG', () => {
    expect(readPngDimensions(solidPng(7, 3))).toEqual({ width: 7, height: 3 });
  });

  it('accepts the valid colour type and bit depth combinations', () => {
    const valid: [number, number][] = [[0, 1], [0, 16], [2, 8], [2, 16], [3, 1], [3, 8], [4, 8], [4, 16], [6, 8], [6, 16]];
    for (const [colourType, bitDepth] of valid) expect(readPngDimensions(png({ colourType, bitDepth }))).toEqual({ width: 10, height: 20 });
  });

  it(`accepts ${MAX_IMAGE_DIMENSION} pixels a side and refuses one more`, () => {
    expect(readPngDimensions(png({ width: MAX_IMAGE_DIMENSION, height: MAX_IMAGE_DIMENSION }))).toEqual({ width: MAX_IMAGE_DIMENSION, height: MAX_IMAGE_DIMENSION });
    expect(() => readPngDimensions(png({ width: MAX_IMAGE_DIMENSION + 1 }))).toThrow(/limited to 16384 pixels/);
  });

  it('refuses a header claiming 2147483647x2147483647 even with a correct CRC', () => {
    expect(() => readPngDimensions(png({ width: 2_147_483_647, height: 2_147_483_647 }))).toThrow(/2147483647x2147483647 pixels; width and height are limited/);
  });

  it('refuses a header whose CRC does not match (the dimensions were tampered with)', () => {
    // Prepare: a valid header, then its width changed without recomputing the CRC
    const bytes = png();
    bytes.writeUInt32BE(5_000, 16);
    // Act + Assess
    expect(() => readPngDimensions(bytes)).toThrow(/CRC/);
  });

  it.each([
    ['a width of 0', png({ width: 0 }), /width or height of 0/],
    ['a width above 2^31-1', png({ width: 0xffffffff }), /2\^31-1/],
    ['truecolour at 4 bits', png({ colourType: 2, bitDepth: 4 }), /colour type 2 with bit depth 4/],
    ['colour type 5', png({ colourType: 5 }), /colour type 5/],
    ['compression method 1', png({ compression: 1 }), /compression, filter or interlace/],
    ['interlace method 2', png({ interlace: 2 }), /compression, filter or interlace/],
    ['another chunk before IHDR', png({}, { before: chunk('tEXt', Buffer.from('a\u0000b', 'latin1')) }), /start with a 13-byte IHDR/],
    ['an IHDR cut short', png().subarray(0, 30), /truncated/],
  ])('refuses %s', (_label, bytes, message) => {
    expect(() => readPngDimensions(bytes)).toThrow(message);
  });

  it('refuses an IHDR chunk that is not 13 bytes long', () => {
    const bytes = Buffer.concat([PNG_SIGNATURE, chunk('IHDR', Buffer.alloc(14, 1)), chunk('IEND', Buffer.alloc(0))]);
    expect(() => readPngDimensions(bytes)).toThrow(/13-byte IHDR/);
  });
});

describe('readJpegDimensions', () => {
  it('reads a baseline frame header', () => {
    expect(readJpegDimensions(jpegHeader(640, 480))).toEqual({ width: 640, height: 480 });
  });

  it('walks past APP, quantisation and Huffman segments, fill bytes and restart markers to a progressive frame header', () => {
    // Prepare: APP1 (Exif-like), DQT, DHT (C4 is not a frame header), fill bytes, RST0, then SOF2
    const bytes = jpeg(segment(0xe1, [...Buffer.from('Exif\u0000\u0000'), 1, 2, 3]), segment(0xdb, Array(65).fill(1)), segment(0xc4, [0, 1, 2, 3]), [0xff, 0xff], [0xff, 0xd0], sof(0xc2, 1920, 1080));
    // Act + Assess
    expect(readJpegDimensions(bytes)).toEqual({ width: 1920, height: 1080 });
  });

  it('reads the dimensions from a single-component (greyscale) frame', () => {
    expect(readJpegDimensions(jpeg(sof(0xc0, 33, 44, 1)))).toEqual({ width: 33, height: 44 });
  });

  it('refuses a frame header above the bound', () => {
    expect(() => readJpegDimensions(jpeg(sof(0xc0, 65_535, 65_535)))).toThrow(/65535x65535 pixels; width and height are limited to 16384/);
  });

  it.each([
    ['scan data before any frame header', jpeg(segment(0xda, [1, 2, 3])), /no frame header/],
    ['the end marker before any frame header', jpeg(), /no frame header/],
    ['a segment longer than the bytes sent', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x40, 0x00, 1, 2]), /truncated/],
    ['a segment length below 2', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0xff, 0xd9]), /truncated/],
    ['bytes that are not a marker', Buffer.from([0xff, 0xd8, 0x12, 0x34]), /no marker/],
    ['a height left to a DNL marker', jpeg(sof(0xc0, 100, 0)), /DNL/],
    ['a width of 0', jpeg(sof(0xc0, 0, 10)), /width or height of 0/],
    ['a frame header whose length does not match its components', jpeg(segment(0xc0, [8, 0, 10, 0, 10, 3, 1, 0x11, 0])), /malformed/],
    ['a second SOI', jpeg([0xff, 0xd8], sof(0xc0, 10, 10)), /misplaced marker/],
    ['only SOI', Buffer.from([0xff, 0xd8]), /ends before its frame header/],
  ])('refuses %s', (_label, bytes, message) => {
    expect(() => readJpegDimensions(bytes)).toThrow(message);
  });
});
