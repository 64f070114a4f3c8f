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
    expect(store.puts).toEqual([`images/${WS}/${record.id}.png`]);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((item) => item.Put?.Item?.SK)).toEqual([record.id, `001800000000123#${record.id}`]);
    expect(items.map((item) => item.Put?.Item?.entity)).toEqual(['ImageAsset', 'ImageAssetByCreated']);
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
