import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../../shared/model/merge-patch.js';

describe('mergePatch', () => {
  it('keeps absent fields, replaces given ones and removes nulls', () => {
    const current = { name: 'Old', description: 'old', status: 'open', timeslotId: 't' };
    expect(mergePatch(current, { name: 'New', description: null, status: undefined })).toEqual({ name: 'New', status: 'open', timeslotId: 't' });
  });

  it('merges only the fields named, leaving the others to the caller', () => {
    expect(mergePatch({ type: 'Text', prompt: 'a' }, { type: 'Email', prompt: null, required: true }, ['prompt', 'required'])).toEqual({ type: 'Text', required: true });
  });

  it('replaces objects and arrays whole and never changes the target', () => {
    const current = { products: [{ id: 'a' }], settings: { a: 1, b: 2 } };
    const next = mergePatch(current, { products: [], settings: { a: 3 } });
    expect(next).toEqual({ products: [], settings: { a: 3 } });
    expect(current).toEqual({ products: [{ id: 'a' }], settings: { a: 1, b: 2 } });
  });

  it('removing a field the target lacks is a no-op', () => {
    expect(mergePatch({ name: 'x' }, { notes: null })).toEqual({ name: 'x' });
  });
});
