import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidCursorError, encodeCursor } from '../../../shared/db/cursor.js';
import { queryPage } from '../../../shared/db/query.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const scope = { owner: 'ws', list: 'things' };

beforeEach(() => ddbMock.reset());

describe('queryPage', () => {
  it('refuses a cursor whose position lies outside a prefix range, before asking DynamoDB (which would answer a ValidationException)', async () => {
    // Prepare: a position no item of the range can have, under a fingerprint recomputed for it.
    ddbMock.on(QueryCommand).resolves({ Items: [] });
    const cursor = encodeCursor(scope, ['0']);

    // Act
    const page = queryPage({ partition: 'WS#ws', range: { beginsWith: 'THING#' } }, { page: 0, limit: 10, cursor }, scope);

    // Assess
    await expect(page).rejects.toThrow(InvalidCursorError);
    expect(ddbMock.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('reads on from a position within the prefix range', async () => {
    // Prepare
    ddbMock.on(QueryCommand).resolves({ Items: [{ PK: 'WS#ws', SK: 'THING#2' }] });
    const cursor = encodeCursor(scope, ['THING#1']);

    // Act
    const page = await queryPage({ partition: 'WS#ws', range: { beginsWith: 'THING#' } }, { page: 0, limit: 10, cursor }, scope);

    // Assess
    expect(page.items).toEqual([{ PK: 'WS#ws', SK: 'THING#2' }]);
    expect(ddbMock.commandCalls(QueryCommand)[0]?.args[0].input.ExclusiveStartKey).toEqual({ PK: 'WS#ws', SK: 'THING#1' });
  });
});
