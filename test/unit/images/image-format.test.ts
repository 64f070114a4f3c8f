import { describe, expect, it } from 'vitest';
import { detectImageType, inspectImage } from '../../../shared/images/image-format.js';
import { jpegHeader, solidPng } from '../../../shared/images/sample-images.js';

describe('detectImageType', () => {
  it('recognises a PNG by its eight-byte signature', () => {
    expect(detectImageType(solidPng(2, 2))).toBe('image/png');
  });

  it('recognises a JPEG by its SOI marker', () => {
    expect(detectImageType(jpegHeader(4, 3))).toBe('image/jpeg');
  });

  it('rejects text, GIF and empty input', () => {
    expect(detectImageType(Buffer.from('not an image at all'))).toBeUndefined();
    expect(detectImageType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
  });

  it('rejects a PNG signature cut short', () => {
    expect(detectImageType(solidPng(2, 2).subarray(0, 7))).toBeUndefined();
  });
});

describe('inspectImage', () => {
  it('reads width and height of a PNG', () => {
    // Act
    const result = inspectImage(solidPng(7, 3), 'image/png');
    // Assess
    expect(result).toEqual({ ok: true, facts: { contentType: 'image/png', width: 7, height: 3 } });
  });

  it('reads width and height of a JPEG from its SOF0 segment', () => {
    const result = inspectImage(jpegHeader(640, 480), 'image/jpeg');
    expect(result).toEqual({ ok: true, facts: { contentType: 'image/jpeg', width: 640, height: 480 } });
  });

  it('refuses bytes that are not an image even when the declared type is PNG', () => {
    const result = inspectImage(Buffer.from('#!/bin/sh\necho hi\n'), 'image/png');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]?.message).toMatch(/not a PNG or JPEG/);
  });

  it('refuses a PNG declared as JPEG', () => {
    const result = inspectImage(solidPng(2, 2), 'image/jpeg');
    expect(!result.ok && result.problems).toEqual([{ path: 'body', message: expect.stringMatching(/image\/png image but Content-Type says image\/jpeg/) }]);
  });

  it('refuses a truncated PNG whose header cannot be read', () => {
    const result = inspectImage(solidPng(2, 2).subarray(0, 12), 'image/png');
    expect(result.ok).toBe(false);
  });
});
