import { crc32 } from 'node:zlib';

/**
 * Reads an image's pixel dimensions from its header, the way a decoder does, refusing what a decoder
 * would refuse: the PNG IHDR chunk (length, type, field values and CRC), or the JPEG frame header
 * (SOFn), found by walking the marker segments from SOI. Only the header is read: a 5 MiB upload is
 * never decompressed, so a "decompression bomb" costs nothing here, and `MAX_IMAGE_DIMENSION` keeps
 * its claimed size within what clients can render.
 */

/** Largest width or height accepted, in pixels (documented on `POST /v1/assets/images`). */
export const MAX_IMAGE_DIMENSION = 16_384;

export interface ImageDimensions {
  width: number;
  height: number;
}

/** Why the header cannot be used: the message is the 422's (`path: body`). */
export class ImageHeaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageHeaderError';
  }
}

const PNG_SIGNATURE_LENGTH = 8;
/** Valid bit depths per PNG colour type (PNG specification, 11.2.2 IHDR). */
const PNG_BIT_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16], // greyscale
  2: [8, 16], // truecolour
  3: [1, 2, 4, 8], // indexed
  4: [8, 16], // greyscale with alpha
  6: [8, 16], // truecolour with alpha
};

function checkBounds(width: number, height: number): ImageDimensions {
  if (width === 0 || height === 0) throw new ImageHeaderError('The image header gives a width or height of 0.');
  if (width > MAX_IMAGE_DIMENSION || height > MAX_IMAGE_DIMENSION) {
    throw new ImageHeaderError(`The image is ${width}x${height} pixels; width and height are limited to ${MAX_IMAGE_DIMENSION} pixels each.`);
  }
  return { width, height };
}

/** The IHDR chunk, which the PNG specification requires to come first, checked field by field. */
export function readPngDimensions(bytes: Uint8Array): ImageDimensions {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ihdrEnd = PNG_SIGNATURE_LENGTH + 4 + 4 + 13 + 4;
  if (view.length < ihdrEnd) throw new ImageHeaderError('The PNG is truncated: its IHDR chunk is incomplete.');
  const length = view.readUInt32BE(PNG_SIGNATURE_LENGTH);
  const type = view.toString('latin1', PNG_SIGNATURE_LENGTH + 4, PNG_SIGNATURE_LENGTH + 8);
  if (type !== 'IHDR' || length !== 13) throw new ImageHeaderError('The PNG does not start with a 13-byte IHDR chunk.');
  const typeAndData = view.subarray(PNG_SIGNATURE_LENGTH + 4, PNG_SIGNATURE_LENGTH + 8 + 13);
  if (crc32(typeAndData) !== view.readUInt32BE(PNG_SIGNATURE_LENGTH + 8 + 13)) {
    throw new ImageHeaderError('The PNG IHDR chunk fails its CRC check: the header is corrupt.');
  }
  const data = PNG_SIGNATURE_LENGTH + 8;
  const width = view.readUInt32BE(data);
  const height = view.readUInt32BE(data + 4);
  const bitDepth = view[data + 8] as number;
  const colourType = view[data + 9] as number;
  if (width > 0x7fffffff || height > 0x7fffffff) throw new ImageHeaderError('The PNG header gives a width or height above 2^31-1.');
  if (!PNG_BIT_DEPTHS[colourType]?.includes(bitDepth)) throw new ImageHeaderError(`The PNG header gives an invalid colour type ${colourType} with bit depth ${bitDepth}.`);
  if (view[data + 10] !== 0 || view[data + 11] !== 0 || (view[data + 12] as number) > 1) {
    throw new ImageHeaderError('The PNG header gives an unknown compression, filter or interlace method.');
  }
  return checkBounds(width, height);
}

/** JPEG start-of-frame markers that carry the dimensions: SOF0-3, 5-7, 9-11, 13-15 (not DHT C4, JPG C8, DAC CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers without a length field: TEM and RST0-7. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/**
 * The first frame header, found by walking the marker segments after SOI: each segment's length is
 * checked against the bytes present, and the scan data (SOS) or the end (EOI) before any frame header
 * means there is none.
 */
export function readJpegDimensions(bytes: Uint8Array): ImageDimensions {
  let offset = 2; // after SOI (FF D8)
  for (;;) {
    if (offset >= bytes.length) throw new ImageHeaderError('The JPEG ends before its frame header (SOF).');
    if (bytes[offset] !== 0xff) throw new ImageHeaderError(`The JPEG has no marker where one must start (byte ${offset}).`);
    // Any number of 0xFF fill bytes may precede a marker.
    while (bytes[offset] === 0xff) offset += 1;
    if (offset >= bytes.length) throw new ImageHeaderError('The JPEG ends before its frame header (SOF).');
    const marker = bytes[offset] as number;
    offset += 1;
    if (isStandalone(marker)) continue;
    if (marker === 0xd8 || marker === 0x00) throw new ImageHeaderError('The JPEG has a misplaced marker before its frame header.');
    if (marker === 0xd9 || marker === 0xda) throw new ImageHeaderError('The JPEG has no frame header (SOF) before its image data.');
    if (offset + 2 > bytes.length) throw new ImageHeaderError('The JPEG is truncated inside a segment header.');
    const length = ((bytes[offset] as number) << 8) | (bytes[offset + 1] as number);
    if (length < 2 || offset + length > bytes.length) throw new ImageHeaderError('The JPEG is truncated: a segment is longer than the bytes sent.');
    if (isStartOfFrame(marker)) {
      // Frame header: length, precision, height, width, component count, 3 bytes per component.
      const components = length >= 8 ? (bytes[offset + 7] as number) : 0;
      if (length < 8 || components === 0 || length !== 8 + 3 * components) throw new ImageHeaderError('The JPEG frame header (SOF) is malformed.');
      const height = ((bytes[offset + 3] as number) << 8) | (bytes[offset + 4] as number);
      const width = ((bytes[offset + 5] as number) << 8) | (bytes[offset + 6] as number);
      if (height === 0) throw new ImageHeaderError('The JPEG frame header leaves the height to a later DNL marker, which is not supported.');
      return checkBounds(width, height);
    }
    offset += length;
  }
}
