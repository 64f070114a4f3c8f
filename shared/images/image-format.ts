import type { ErrorDetail } from '../errors.js';
import { ImageHeaderError, readJpegDimensions, readPngDimensions } from './image-header.js';

export type ImageContentType = 'image/png' | 'image/jpeg';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
}

/** The image type the bytes really are, by magic number; undefined when neither PNG nor JPEG. */
export function detectImageType(bytes: Uint8Array): ImageContentType | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'image/jpeg';
  return undefined;
}

export interface ImageFacts {
  contentType: ImageContentType;
  width: number;
  height: number;
}

/** Result of inspecting uploaded bytes: the facts, or the reasons they are refused (422 details). */
export type InspectionResult = { ok: true; facts: ImageFacts } | { ok: false; problems: ErrorDetail[] };

/**
 * Checks that `bytes` really are an image of the declared type (a client cannot register an
 * executable as `image/png`) and reads its pixel dimensions from the image header (decoded and
 * checked as a decoder would, within `MAX_IMAGE_DIMENSION`: image-header.ts).
 */
export function inspectImage(bytes: Uint8Array, declared: ImageContentType): InspectionResult {
  const actual = detectImageType(bytes);
  if (!actual) {
    return { ok: false, problems: [{ path: 'body', message: 'The body is not a PNG or JPEG image (unrecognised file signature).' }] };
  }
  if (actual !== declared) {
    return { ok: false, problems: [{ path: 'body', message: `The body is a ${actual} image but Content-Type says ${declared}.` }] };
  }
  let width: number;
  let height: number;
  try {
    ({ width, height } = actual === 'image/png' ? readPngDimensions(bytes) : readJpegDimensions(bytes));
  } catch (error) {
    if (!(error instanceof ImageHeaderError)) throw error;
    return { ok: false, problems: [{ path: 'body', message: error.message }] };
  }
  return { ok: true, facts: { contentType: actual, width, height } };
}

/** File extension used in blob keys. */
export function extensionOf(contentType: ImageContentType): 'png' | 'jpg' {
  return contentType === 'image/png' ? 'png' : 'jpg';
}
