import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { BlobStore } from '../../../shared/blob-store/blob-store.js';
import { registerImage } from '../../../shared/images/images-service.js';
import { solidPng } from '../../../shared/images/sample-images.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const WS = 'aaaaaaaaaaaaaaaaaaaaaaaa';

function memoryStore(): BlobStore & { puts: string[] } {
  const puts: string[] = [];
  return { puts, put: async (key) => void puts.push(key), publicUrl: (key) => `https://cdn.test/${key}` };
}

beforeEach(() => ddbMock.reset());

describe('registerImage', () => {
  it('stores the bytes, then the record and its newest-first copy in one transaction', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});
    const store = memoryStore();
    // Act
    const record = await registerImage(WS, { bytes: solidPng(3, 2), declaredType: 'image/png', filename: 'a.png' }, store, new Date(1_800_000_000_123));
    // Assess
    expect(store.puts).toEqual([record.blobKey]);
    expect(record.blobKey).toMatch(new RegExp(`^images/[0-9a-f]{32}/${record.id}\\.png$`));
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((item) => item.Put?.Item?.SK)).toEqual([record.id, `001800000000123#${record.id}`]);
    expect(items.map((item) => item.Put?.Item?.entity)).toEqual(['ImageAsset', 'ImageAssetByCreated']);
  });

  it('keeps the workspace id out of the public object key: one folder per workspace, named by a digest', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});
    const store = memoryStore();
    const image = { bytes: solidPng(1, 1), declaredType: 'image/png' as const, filename: 'a.png' };
    // Act
    const first = await registerImage(WS, image, store);
    const second = await registerImage(WS, image, store);
    const other = await registerImage('b'.repeat(24), image, store);
    // Assess
    const folder = (key: string) => key.split('/')[1];
    expect(first.blobKey).not.toContain(WS);
    expect(folder(second.blobKey)).toBe(folder(first.blobKey));
    expect(folder(other.blobKey)).not.toBe(folder(first.blobKey));
  });

  it('stores nothing for bytes that are not the declared image type', async () => {
    const store = memoryStore();
    await expect(registerImage(WS, { bytes: Buffer.from('nope'), declaredType: 'image/png', filename: 'a.png' }, store)).rejects.toMatchObject({ code: 'validation_failed' });
    expect(store.puts).toEqual([]);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('maps an id collision to a conflict', async () => {
    ddbMock.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'x', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] }));
    await expect(registerImage(WS, { bytes: solidPng(1, 1), declaredType: 'image/png', filename: 'a.png' }, memoryStore())).rejects.toMatchObject({ code: 'conflict' });
  });
});
