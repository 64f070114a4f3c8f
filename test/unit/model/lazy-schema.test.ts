import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lazy, once } from '../../../shared/model/lazy-schema.js';

describe('lazy schemas (cold start: built on first use)', () => {
  it('builds nothing until the schema is used, then builds it once', () => {
    let builds = 0;
    const schema = lazy(() => {
      builds += 1;
      return z.object({ name: z.string().min(1) });
    });
    const route = { body: schema };
    expect(builds).toBe(0);
    expect(route.body ? 'has body' : 'none').toBe('has body');
    expect(builds).toBe(0);
    expect(schema.safeParse({ name: 'a' }).success).toBe(true);
    expect(schema.safeParse({ name: '' }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('answers instanceof, shape and errors as the schema it stands for', () => {
    const eager = z.strictObject({ id: z.string().regex(/^[a-f0-9]{24}$/), count: z.number().int().min(0) });
    const deferred = lazy(() => z.strictObject({ id: z.string().regex(/^[a-f0-9]{24}$/), count: z.number().int().min(0) }));
    expect(deferred instanceof z.ZodObject).toBe(true);
    expect(Object.keys(deferred.shape)).toEqual(['id', 'count']);
    const input = { id: 'nope', count: -1, extra: true };
    expect(deferred.safeParse(input).error?.issues).toEqual(eager.safeParse(input).error?.issues);
  });

  it('keeps one identity, so composed schemas and the JSON Schema (OpenAPI) are those of eager schemas', () => {
    const eagerItem = z.object({ sku: z.string() }).meta({ id: 'Item', description: 'One item.' });
    const eagerList = z.object({ items: z.array(eagerItem), first: eagerItem.optional() });
    const item = lazy(() => z.object({ sku: z.string() }).meta({ id: 'Item', description: 'One item.' }));
    const list = lazy(() => z.object({ items: z.array(item), first: item.optional() }));
    expect(z.toJSONSchema(list)).toEqual(z.toJSONSchema(eagerList));
    expect(z.globalRegistry.get(item)).toEqual({ id: 'Item', description: 'One item.' });
  });

  it('defers plain objects of schema fields, spread into schemas like the object itself', () => {
    let builds = 0;
    const fields = lazy(() => {
      builds += 1;
      return { name: z.string(), note: z.string().optional() };
    });
    expect(builds).toBe(0);
    const schema = z.object({ ...fields, extra: z.boolean() });
    expect(Object.keys(schema.shape)).toEqual(['name', 'note', 'extra']);
    expect(builds).toBe(1);
  });

  it('once computes its value on the first call only', () => {
    let calls = 0;
    const value = once(() => {
      calls += 1;
      return ['a', 'b'];
    });
    expect(calls).toBe(0);
    expect(value()).toBe(value());
    expect(calls).toBe(1);
  });
});
