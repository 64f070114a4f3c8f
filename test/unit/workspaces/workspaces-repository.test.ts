import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/errors.js';
import { createWorkspace } from '../../../shared/workspaces/workspaces-repository.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const taken = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

beforeEach(() => ddbMock.reset());

describe('createWorkspace', () => {
  it('succeeds when the put failed its condition on its own earlier send (a resend after a timed-out answer)', async () => {
    // Prepare: the first send landed, the SDK's resend meets the item it wrote
    let written: Record<string, unknown> | undefined;
    ddbMock.on(PutCommand).callsFake((input: { Item: Record<string, unknown> }) => {
      written = input.Item;
      throw taken();
    });
    ddbMock.on(GetCommand).callsFake(() => ({ Item: written }));
    // Act
    const workspace = await createWorkspace('Resent');
    // Assess
    expect(workspace).toMatchObject({ id: written?.id, name: 'Resent', createdAt: written?.createdAt });
    expect(ddbMock.commandCalls(GetCommand)[0]?.args[0].input.ConsistentRead).toBe(true);
  });

  it('is a ConflictError when the id holds another workspace', async () => {
    // Prepare
    ddbMock.on(PutCommand).rejects(taken());
    ddbMock.on(GetCommand).callsFake((input: { Key: Record<string, unknown> }) => ({ Item: { ...input.Key, id: 'x', name: 'Someone else', createdAt: '2020-01-01T00:00:00.000Z' } }));
    // Act
    const creating = createWorkspace('Mine');
    // Assess
    await expect(creating).rejects.toBeInstanceOf(ConflictError);
  });
});
