import { describe, expect, it } from 'vitest';
import { attributeValueSize, itemSize, transactWriteUnits } from '../../../bin/local/transact-capacity.js';

describe('transactional write capacity as DynamoDB charges it', () => {
  it('sizes values by DynamoDB\'s rules: UTF-8 bytes, about a byte per two digits, nested overheads', () => {
    expect(attributeValueSize({ S: 'héllo' })).toBe(6);
    expect(attributeValueSize({ N: '12345' })).toBe(4);
    expect(attributeValueSize({ BOOL: true })).toBe(1);
    expect(attributeValueSize({ L: [{ S: 'ab' }, { N: '1' }] })).toBe(3 + (1 + 2) + (1 + 2));
    expect(attributeValueSize({ M: { a: { S: 'xy' } } })).toBe(3 + (1 + 2) + 1);
    expect(itemSize({ PK: { S: 'W#1' }, SK: { S: 'C#2' } })).toBe(2 + 3 + 2 + 3);
  });

  it('charges 2 WCU per started KB of a put, and 2 for an update, delete or condition check', () => {
    const small = { PK: { S: 'a' } };
    const large = { PK: { S: 'a' }, body: { S: 'x'.repeat(2_500) } };
    expect(transactWriteUnits({ Put: { TableName: 't', Item: small } })).toBe(2);
    expect(transactWriteUnits({ Put: { TableName: 't', Item: large } })).toBe(6);
    expect(transactWriteUnits({ Delete: { TableName: 't', Key: small } })).toBe(2);
    expect(transactWriteUnits({ ConditionCheck: { TableName: 't', Key: small, ConditionExpression: 'attribute_exists(PK)' } })).toBe(2);
  });
});
