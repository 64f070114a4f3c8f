import { describe, expect, it } from 'vitest';
import { InvalidCursorError, decodeCursor, encodeCursor } from '../../../shared/db/cursor.js';

const scope = { owner: 'a'.repeat(24), list: 'invoices', shape: { direction: 'asc', status: 'open' } };

describe('list cursors', () => {
  it('round-trips a position for the list that issued it', () => {
    const cursor = encodeCursor(scope, ['6740f1a2c3d4e5f601234567']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(scope, cursor, 1)).toEqual(['6740f1a2c3d4e5f601234567']);
  });

  it('does not depend on the order the shape was written in, and ignores absent filters', () => {
    const cursor = encodeCursor(scope, ['x']);
    expect(decodeCursor({ ...scope, shape: { customerId: undefined, status: 'open', direction: 'asc' } }, cursor, 1)).toEqual(['x']);
  });

  it.each([
    ['another workspace', { ...scope, owner: 'b'.repeat(24) }],
    ['another list', { ...scope, list: 'events' }],
    ['another filter', { ...scope, shape: { direction: 'asc', status: 'paid' } }],
    ['another direction', { ...scope, shape: { direction: 'desc', status: 'open' } }],
  ])('refuses a cursor issued for %s', (_name, other) => {
    expect(() => decodeCursor(other, encodeCursor(scope, ['x']), 1)).toThrow(InvalidCursorError);
  });

  it.each(['', 'not a cursor!', 'e30', Buffer.from('{"v":1,"f":"x","p":["a"]}').toString('base64url'), 'A'.repeat(3000)])('refuses garbage %#', (cursor) => {
    expect(() => decodeCursor(scope, cursor, 1)).toThrow(InvalidCursorError);
  });

  it.each([
    ['another value', (position: string[]) => ['x2', ...position.slice(1)]],
    ['another partition', (position: string[]) => [position[0] as string, `WS#${'b'.repeat(24)}#INVOICE`, position[2] as string]],
    ['a value past every key', (position: string[]) => ['9999-12-31T23:59:59.999Z#ffffffffffffffffffffffff', ...position.slice(1)]],
  ])('refuses a cursor whose position was edited to %s, its fingerprint unchanged', (_name, edit) => {
    // Prepare
    const issued = JSON.parse(Buffer.from(encodeCursor(scope, ['x', `WS#${'a'.repeat(24)}#INVOICE`, 'id1']), 'base64url').toString('utf8')) as { p: string[] };
    const forged = Buffer.from(JSON.stringify({ ...issued, p: edit(issued.p) })).toString('base64url');

    // Act
    const decode = () => decodeCursor(scope, forged, 3);

    // Assess
    expect(decode).toThrow(InvalidCursorError);
  });

  it('refuses a position of the wrong shape', () => {
    expect(() => decodeCursor(scope, encodeCursor(scope, ['a', 'b']), 1)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(scope, encodeCursor(scope, ['']), 1)).toThrow(InvalidCursorError);
  });
});
