import { createHash } from 'node:crypto';
import { InvalidQueryError } from '../errors.js';
import { itemKey } from './table-design.js';

/**
 * Opaque list cursors (API.md "Deep pages and cursors"). A cursor holds the sort-key position of the
 * last item a page returned, plus a fingerprint of the list it belongs to (the workspace or public
 * scope, the list, its sort and its filters) and of that position: a cursor issued for another list or
 * workspace, or whose position was edited, is refused (`invalid_query`). The partition is never taken
 * from the cursor but rebuilt by the server, so even a cursor forged with a recomputed fingerprint only
 * moves within the caller's own list: never a 500 and never foreign data.
 */

export interface CursorScope {
  /** Workspace id, or the public scope (e.g. `partner:<code>`). */
  owner: string;
  /** The list: `invoices`, `events`, ... */
  list: string;
  /** Everything that shapes the order and membership: sort, direction, filters. */
  shape?: Readonly<Record<string, unknown>>;
}

/** 2: the fingerprint covers the position too (1 covered the list only, so an edited position passed). */
const VERSION = 2;

function fingerprint(scope: CursorScope, position: unknown): string {
  const shape = Object.entries(scope.shape ?? {})
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([scope.owner, scope.list, shape, position])).digest('base64url').slice(0, 16);
}

export class InvalidCursorError extends InvalidQueryError {
  constructor() {
    super([{ path: 'cursor', message: 'is not a cursor this list issued; pass the `nextCursor` of the previous page unchanged' }], 'The cursor is not valid for this list.');
  }
}

/** Encodes the position after `position` (the sort-key values of the last item returned). */
export function encodeCursor(scope: CursorScope, position: readonly string[]): string {
  return Buffer.from(JSON.stringify({ v: VERSION, f: fingerprint(scope, position), p: position })).toString('base64url');
}

/**
 * Whether a cursor was issued for this scope (its fingerprint matches), without decoding its position:
 * for a list whose scope holds a choice made on page 0 (which partition it reads), to find that choice.
 */
export function issuedFor(scope: CursorScope, cursor: string): boolean {
  try {
    if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) return false;
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown; f?: unknown; p?: unknown } | null;
    return body?.v === VERSION && body.f === fingerprint(scope, body.p);
  } catch {
    return false;
  }
}

/** Decodes a cursor of this list, or throws InvalidCursorError. `arity` is how many values it must hold. */
export function decodeCursor(scope: CursorScope, cursor: string, arity: number): string[] {
  let decoded: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) throw new InvalidCursorError();
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  const body = decoded as { v?: unknown; f?: unknown; p?: unknown };
  const valid = typeof decoded === 'object' && decoded !== null
    && body.v === VERSION
    && body.f === fingerprint(scope, body.p)
    && Array.isArray(body.p) && body.p.length === arity
    && body.p.every((value) => typeof value === 'string' && value.length > 0 && value.length <= 1024);
  if (!valid) throw new InvalidCursorError();
  return body.p as string[];
}

/**
 * The platform item holding the key that cursors for anonymous callers are sealed with
 * (sealed-cursor.ts). Here, with no database client loaded, so the CDK app can grant it.
 */
export const CURSOR_SEALING_KEY_ITEM = itemKey('PLATFORM#CURSOR_SEALING_KEY', 'KEY');
