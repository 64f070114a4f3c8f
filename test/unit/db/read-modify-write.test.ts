import { describe, expect, it } from 'vitest';
import { readModifyWrite } from '../../../shared/db/read-modify-write.js';
import { ConflictError, NotFoundError, StaleVersionError, WriteContentionError } from '../../../shared/errors.js';

/** A stored thing whose version moves `racesLost` times just before our conditional write. */
function store(version: number, racesLost: number, failure: () => Error = () => new StaleVersionError('thing')) {
  const state = { version, reads: 0, writes: [] as number[] };
  let races = racesLost;
  return {
    state,
    read: async () => {
      state.reads += 1;
      return { version: state.version };
    },
    write: async (current: { version: number }) => {
      if (races > 0) {
        races -= 1;
        state.version += 1;
        throw failure();
      }
      state.writes.push(current.version);
      state.version = current.version + 1;
      return state.version;
    },
  };
}

describe('readModifyWrite', () => {
  it('writes once when nobody races', async () => {
    const thing = store(3, 0);
    await expect(readModifyWrite({ resource: 'thing', read: thing.read, write: thing.write })).resolves.toBe(4);
    expect(thing.state).toMatchObject({ reads: 1, writes: [3] });
  });

  it('re-reads and re-applies after a lost race when there is no If-Match, so no change is lost', async () => {
    const thing = store(3, 2);
    await expect(readModifyWrite({ resource: 'thing', read: thing.read, write: thing.write })).resolves.toBe(6);
    expect(thing.state).toMatchObject({ reads: 3, writes: [5] });
  });

  it('answers 409 naming both versions when If-Match is not the current version, without writing', async () => {
    const thing = store(3, 0);
    const attempt = readModifyWrite({ resource: 'thing', ifMatch: 2, read: thing.read, write: thing.write });
    await expect(attempt).rejects.toBeInstanceOf(ConflictError);
    await expect(attempt).rejects.toThrow('The thing is at version 3, not 2 (If-Match)');
    expect(thing.state.writes).toEqual([]);
  });

  it('answers 409 when the version moves between the If-Match read and the write', async () => {
    const thing = store(3, 1);
    const attempt = readModifyWrite({ resource: 'thing', ifMatch: 3, read: thing.read, write: thing.write });
    await expect(attempt).rejects.toThrow('changed after version 3 was read');
    expect(thing.state.writes).toEqual([]);
  });

  it('retries a transaction that only lost a race even with If-Match (the re-read decides)', async () => {
    const thing = store(3, 1, () => new WriteContentionError());
    await readModifyWrite({ resource: 'thing', ifMatch: 3, read: async () => ({ version: 3 }), write: thing.write });
    expect(thing.state.writes).toEqual([3]);
  });

  it('retries the extra failures the caller names', async () => {
    class CounterTaken extends Error {}
    const thing = store(1, 1, () => new CounterTaken());
    await readModifyWrite({ resource: 'thing', read: thing.read, write: thing.write, retryOn: (error) => error instanceof CounterTaken });
    expect(thing.state.reads).toBe(2);
  });

  it('becomes a retryable 503 when every attempt loses the race', async () => {
    const thing = store(1, 1_000);
    await expect(readModifyWrite({ resource: 'thing', read: thing.read, write: thing.write })).rejects.toBeInstanceOf(WriteContentionError);
  });

  it('lets domain errors of the read and the write through', async () => {
    await expect(readModifyWrite({ resource: 'thing', read: async () => { throw new NotFoundError('Thing'); }, write: async () => 1 })).rejects.toBeInstanceOf(NotFoundError);
  });
});
