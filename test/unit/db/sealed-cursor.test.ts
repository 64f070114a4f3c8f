import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeCursor } from '../../../shared/db/cursor.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const storedKey = randomBytes(32).toString('base64');
const inner = encodeCursor({ owner: 'partner:CODE', list: 'partner-events' }, ['WS#6740f1a2c3d4e5f601234567#EVENT', '6740f1a2c3d4e5f601234568']);

/** The module as a fresh process loads it: no key cached yet. */
async function freshProcess() {
  vi.resetModules();
  const [sealing, cursors] = await Promise.all([import('../../../shared/db/sealed-cursor.js'), import('../../../shared/db/cursor.js')]);
  return { ...sealing, InvalidCursorError: cursors.InvalidCursorError };
}

beforeEach(() => ddbMock.reset());

describe('sealed cursors', () => {
  it('round-trip under the stored key and hide the position (the workspace id)', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { key: storedKey } });
    const { openCursor, sealCursor } = await freshProcess();
    const sealed = await sealCursor(inner, 'partner-events');
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('6740f1a2c3d4e5f601234567');
    expect(await openCursor(sealed, 'partner-events')).toBe(inner);
    // Read once per process, strongly consistent, and never written when it exists.
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(1);
    expect(ddbMock.commandCalls(GetCommand)[0]?.args[0].input.ConsistentRead).toBe(true);
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('refuse a cursor edited, cut short, of another purpose or from another key', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { key: storedKey } });
    const { openCursor, sealCursor, InvalidCursorError } = await freshProcess();
    const sealed = await sealCursor(inner, 'partner-events');
    const flipped = Buffer.from(sealed, 'base64url');
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    for (const bad of [flipped.toString('base64url'), sealed.slice(0, 30), inner, '', 'not a cursor!']) {
      await expect(openCursor(bad, 'partner-events')).rejects.toBeInstanceOf(InvalidCursorError);
    }
    await expect(openCursor(sealed, 'another-list')).rejects.toBeInstanceOf(InvalidCursorError);
    ddbMock.on(GetCommand).resolves({ Item: { key: randomBytes(32).toString('base64') } });
    const other = await freshProcess();
    await expect(other.openCursor(sealed, 'partner-events')).rejects.toBeInstanceOf(other.InvalidCursorError);
  });

  it('create the key once: the first process stores it, one that loses the race uses the winner\'s', async () => {
    // The first process finds no key and stores its own.
    ddbMock.on(GetCommand).resolves({});
    const first = await freshProcess();
    const sealed = await first.sealCursor(inner, 'partner-events');
    const put = ddbMock.commandCalls(PutCommand)[0]?.args[0].input;
    expect(put?.ConditionExpression).toBe('attribute_not_exists(#pk)');
    const created = put?.Item?.key as string;
    // A second process also found none, but its put fails: it reads and uses the stored key.
    ddbMock.reset();
    ddbMock.on(GetCommand).resolvesOnce({}).resolves({ Item: { key: created } });
    ddbMock.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'taken', $metadata: {} }));
    const second = await freshProcess();
    expect(await second.openCursor(sealed, 'partner-events')).toBe(inner);
  });

  it('try the key again after a failed load instead of keeping the failure', async () => {
    ddbMock.on(GetCommand).rejectsOnce(new Error('throttled')).resolves({ Item: { key: storedKey } });
    const { sealCursor } = await freshProcess();
    await expect(sealCursor(inner, 'partner-events')).rejects.toThrow('throttled');
    await expect(sealCursor(inner, 'partner-events')).resolves.toMatch(/^[A-Za-z0-9_-]+$/);
  });
});
