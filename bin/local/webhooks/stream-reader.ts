import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand,
  type AttributeValue, type _Record as StreamRecord, type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue as LambdaAttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

export interface StreamReaderOptions {
  endpoint: string;
  tableName: string;
  /** Where to start in the shards open at start: `TRIM_HORIZON` replays what is still in the stream. */
  startAt: 'LATEST' | 'TRIM_HORIZON';
  /** Records the Lambda event-source filter would let through. */
  filter: (record: DynamoDBRecord) => boolean;
  /** The function the records are for, called with the event Lambda would build. */
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** @default 100 */
  pollIntervalMs?: number;
  onError?: (error: unknown) => void;
}

export interface StreamReader {
  stop(): Promise<void>;
}

interface ShardState {
  iterator: string | undefined;
  lastSequence: string | undefined;
}

/** SDK attribute values (binary as bytes) in the JSON form Lambda passes (binary as base64). */
function toLambdaValue(value: AttributeValue): LambdaAttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((item) => Buffer.from(item).toString('base64')) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  return value as LambdaAttributeValue;
}

function toLambdaImage(image: Record<string, AttributeValue> | undefined): Record<string, LambdaAttributeValue> {
  return Object.fromEntries(Object.entries(image ?? {}).map(([name, value]) => [name, toLambdaValue(value)]));
}

/** One stream record as Lambda's DynamoDB event source hands it to a function. */
function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const data = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: data.ApproximateCreationDateTime ? Math.floor(data.ApproximateCreationDateTime.getTime() / 1000) : undefined,
      Keys: toLambdaImage(data.Keys),
      ...(data.NewImage ? { NewImage: toLambdaImage(data.NewImage) } : {}),
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType,
    },
  } as DynamoDBRecord;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads DynamoDB Local's stream the way Lambda's event-source mapping reads DynamoDB Streams: every
 * shard in order, records filtered, one handler call per batch, and a batch item failure (or a throw)
 * re-reads from the failed record after a pause. New shards are discovered as they appear.
 */
export async function startStreamReader(options: StreamReaderOptions): Promise<StreamReader> {
  const dynamo = new DynamoDBClient({ endpoint: options.endpoint });
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint });
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream; it must be created from mainTableDefinition()`);
  const shards = new Map<string, ShardState>();
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  let stopped = false;

  const iterator = async (shardId: string, type: ShardIteratorType, sequence?: string) => (await streams.send(new GetShardIteratorCommand({
    StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type, ...(sequence ? { SequenceNumber: sequence } : {}),
  }))).ShardIterator;

  const discover = async (initial: boolean) => {
    let exclusiveStart: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStart }));
      for (const shard of StreamDescription?.Shards ?? []) {
        const id = shard.ShardId as string;
        if (shards.has(id)) continue;
        // Shards that appear later are read from their first record: nothing written to them is missed.
        shards.set(id, { iterator: await iterator(id, initial ? options.startAt : 'TRIM_HORIZON'), lastSequence: undefined });
      }
      exclusiveStart = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStart);
  };

  const readShard = async (id: string, state: ShardState): Promise<number> => {
    if (!state.iterator) return 0;
    let output;
    try {
      output = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 1000 }));
    } catch (error) {
      const name = (error as Error).name;
      if (name !== 'ExpiredIteratorException' && name !== 'TrimmedDataAccessException') throw error;
      state.iterator = await iterator(id, state.lastSequence ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON', state.lastSequence);
      return 0;
    }
    const records = (output.Records ?? []).map((record) => toLambdaRecord(record, streamArn));
    const batch = records.filter(options.filter);
    let failedAt: string | undefined;
    if (batch.length > 0) {
      try {
        const result = await options.handler({ Records: batch });
        failedAt = result?.batchItemFailures?.[0]?.itemIdentifier;
      } catch (error) {
        options.onError?.(error);
        failedAt = batch[0]?.dynamodb?.SequenceNumber;
      }
    }
    if (failedAt) {
      // As Lambda does: the batch is retried from the failed record, after a pause.
      await sleep(1_000);
      state.iterator = await iterator(id, 'AT_SEQUENCE_NUMBER', failedAt);
      return 0;
    }
    state.lastSequence = records.at(-1)?.dynamodb?.SequenceNumber ?? state.lastSequence;
    state.iterator = output.NextShardIterator;
    if (!state.iterator) shards.delete(id);
    return records.length;
  };

  await discover(true);
  const loop = (async () => {
    let lastDiscovery = Date.now();
    while (!stopped) {
      let read = 0;
      try {
        if (Date.now() - lastDiscovery > 2_000) {
          await discover(false);
          lastDiscovery = Date.now();
        }
        for (const [id, state] of [...shards]) read += await readShard(id, state);
      } catch (error) {
        options.onError?.(error);
        await sleep(1_000);
      }
      if (read === 0) await sleep(pollIntervalMs);
    }
  })();

  return {
    async stop() {
      stopped = true;
      await loop;
      dynamo.destroy();
      streams.destroy();
    },
  };
}
