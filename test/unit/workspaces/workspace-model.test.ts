import { describe, expect, it } from 'vitest';
import { fromWorkspaceItem, workspaceLimitsProblems } from '../../../shared/workspaces/workspace-model.js';

describe('workspace limits', () => {
  it.each([
    [{ rate: 100, burst: 200 }, []],
    [{ rate: 0.5, burst: 1 }, []],
    [{ rate: 10_000, burst: 5_000 }, []],
    [{ rate: 0, burst: 10 }, ['rate']],
    [{ rate: 10_001, burst: 10 }, ['rate']],
    [{ rate: Number.NaN, burst: 10 }, ['rate']],
    [{ rate: 10, burst: 1.5 }, ['burst']],
    [{ rate: 10, burst: 0 }, ['burst']],
    [{ rate: -1, burst: 5_001 }, ['rate', 'burst']],
  ])('checks %j against what a usage plan may hold', (limits, paths) => {
    expect(workspaceLimitsProblems(limits).map((problem) => problem.path)).toEqual(paths);
  });

  it('reads stored limits back, and ignores damaged ones (the defaults then apply, never a zero limit)', () => {
    const base = { id: 'w1', name: 'Acme', createdAt: '2026-01-01T00:00:00Z' };
    expect(fromWorkspaceItem({ ...base, limits: { rate: 5, burst: 10 } }).limits).toEqual({ rate: 5, burst: 10 });
    expect(fromWorkspaceItem(base).limits).toBeUndefined();
    expect(fromWorkspaceItem({ ...base, limits: { rate: 0, burst: 10 } }).limits).toBeUndefined();
    expect(fromWorkspaceItem({ ...base, limits: 'fast' }).limits).toBeUndefined();
  });
});
