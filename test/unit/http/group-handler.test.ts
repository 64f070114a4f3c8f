import { describe, expect, it } from 'vitest';
import { createGroupHandler } from '../../../shared/http/group-handler.js';
import { operations as systemOperations } from '../../../functions/system/handler.js';
import { operations as partnerOperations } from '../../../functions/partner/handler.js';
import { echoOperation, readOperation } from '../support/test-routes.js';

describe('createGroupHandler', () => {
  it('refuses a group with POST routes that take Idempotency-Key when no idempotency runner is given', () => {
    // Act + Assess
    expect(() => createGroupHandler('system', systemOperations, { extraRoutes: [echoOperation] }))
      .toThrow(/Group system has POST routes that take Idempotency-Key/);
  });

  it('builds a group without keyed POST routes with no idempotency runner', () => {
    expect(typeof createGroupHandler('system', systemOperations, { extraRoutes: [readOperation] })).toBe('function');
  });

  it('refuses operations of another group', () => {
    expect(() => createGroupHandler('system', [...systemOperations, ...partnerOperations]))
      .toThrow(/Group system was given operations of other groups: listPartnerEvents/);
  });
});
