import { describe, expect, it } from 'vitest';
import { parseContentType } from '../../../shared/http/media-type.js';

describe('parseContentType', () => {
  it.each([
    [undefined, { type: '' }],
    ['image/PNG', { type: 'image/png' }],
    [' application/json ; charset=UTF-8', { type: 'application/json', charset: 'utf-8' }],
    ['application/json;charset="utf-8";', { type: 'application/json', charset: 'utf-8' }],
    ['multipart/form-data; boundary=b; charset=ISO-8859-1', { type: 'multipart/form-data', charset: 'iso-8859-1' }],
  ])('reads %j as %j', (value, expected) => {
    expect(parseContentType(value)).toEqual(expected);
  });
});
