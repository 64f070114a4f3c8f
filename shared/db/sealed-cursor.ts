import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { getItem, putItem } from './conditional.js';
import { CURSOR_SEALING_KEY_ITEM as KEY_ITEM, InvalidCursorError } from './cursor.js';
import { entityAttribute, notExists } from './table-design.js';

/**
 * Cursors handed to anonymous callers are sealed (AES-256-GCM). A cursor's position is the table key of
 * the last item a page read, and on the partner listing that key names the host's workspace: sealed,
 * the position can be neither read nor edited. (The `/v1` lists' cursors go back to the workspace they
 * describe, so they stay plain; cursor.ts checks their integrity.)
 *
 * The key is one platform item, made by the first process that needs it (a conditional put: when two
 * race, both use the one stored) and read once per process after that. It never leaves the table.
 */

export const CURSOR_SEALING_KEY_ENTITY = 'CursorSealingKey';

const IV_BYTES = 12;
const TAG_BYTES = 16;

class KeyTakenError extends Error {}

async function storedKey(): Promise<Buffer | undefined> {
  // Strongly consistent: a key another process has just created must be the one read.
  const item = await getItem(KEY_ITEM, { consistent: true });
  return typeof item?.key === 'string' ? Buffer.from(item.key, 'base64') : undefined;
}

async function loadOrCreateKey(): Promise<Buffer> {
  const stored = await storedKey();
  if (stored) return stored;
  const fresh = randomBytes(32);
  try {
    await putItem({ ...KEY_ITEM, ...entityAttribute(CURSOR_SEALING_KEY_ENTITY), key: fresh.toString('base64'), createdAt: new Date().toISOString() },
      { ...notExists(), onFailed: () => new KeyTakenError() });
    return fresh;
  } catch (error) {
    if (!(error instanceof KeyTakenError)) throw error;
    const winner = await storedKey();
    if (!winner) throw new Error('The cursor sealing key was created concurrently but cannot be read.');
    return winner;
  }
}

let key: Promise<Buffer> | undefined;

/** The platform's sealing key, loaded (or created) once per process; a failed load is tried again next time. */
function sealingKey(): Promise<Buffer> {
  key ??= loadOrCreateKey().catch((error: unknown) => {
    key = undefined;
    throw error;
  });
  return key;
}

/** Seals a cursor for `purpose` (bound as authenticated data: a cursor of one purpose never opens as another). */
export async function sealCursor(cursor: string, purpose: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await sealingKey(), iv).setAAD(Buffer.from(purpose));
  const sealed = Buffer.concat([cipher.update(Buffer.from(cursor, 'base64url')), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** Opens a sealed cursor of `purpose`, or throws InvalidCursorError (edited, truncated, another purpose). */
export async function openCursor(sealed: string, purpose: string): Promise<string> {
  const bytes = /^[A-Za-z0-9_-]{1,2048}$/.test(sealed) ? Buffer.from(sealed, 'base64url') : Buffer.alloc(0);
  if (bytes.length <= IV_BYTES + TAG_BYTES) throw new InvalidCursorError();
  const keyBytes = await sealingKey();
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyBytes, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(purpose));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('base64url');
  } catch {
    throw new InvalidCursorError();
  }
}
