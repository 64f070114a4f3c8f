import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_SETTLEMENT_DELAY_SECONDS, sandboxProcessor } from '../../../shared/payments/sandbox-processor.js';

const charge = (paymentMethod: string | undefined, idempotencyKey = 'k1') =>
  sandboxProcessor.charge({ amount: 1000, currency: 'USD', paymentMethod, customerId: 'c', idempotencyKey });

afterEach(() => {
  delete process.env.SETTLEMENT_DELAY_SECONDS;
});

describe('sandboxProcessor.charge', () => {
  it('succeeds with pm_card_visa and returns pi_/ch_ ids', async () => {
    const result = await charge('pm_card_visa');
    expect(result).toEqual({ status: 'succeeded', intentId: expect.stringMatching(/^pi_/), chargeId: expect.stringMatching(/^ch_/) });
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined'],
    ['pm_card_authenticationRequired', 'authentication_required'],
    [undefined, 'no_payment_method'],
    ['', 'no_payment_method'],
  ])('fails %s with %s', async (token, failureCode) => {
    const result = await charge(token);
    expect(result).toMatchObject({ status: 'failed', failureCode, failureMessage: expect.any(String) });
  });

  it('returns the same intent for the same idempotency key', async () => {
    expect(await charge('pm_card_visa', 'same')).toEqual(await charge('pm_card_visa', 'same'));
    expect((await charge('pm_card_visa', 'a')).intentId).not.toBe((await charge('pm_card_visa', 'b')).intentId);
  });
});

describe('sandboxProcessor.settlementDelaySeconds', () => {
  it('is 2 days unless SETTLEMENT_DELAY_SECONDS says otherwise', () => {
    expect(sandboxProcessor.settlementDelaySeconds()).toBe(SANDBOX_SETTLEMENT_DELAY_SECONDS);
    process.env.SETTLEMENT_DELAY_SECONDS = '60';
    expect(sandboxProcessor.settlementDelaySeconds()).toBe(60);
  });
});

describe('sandboxProcessor.refund', () => {
  it('returns a re_ id', async () => {
    const result = await sandboxProcessor.refund({ chargeId: 'ch_1', amount: 1, currency: 'USD', idempotencyKey: 'r' });
    expect(result.refundId).toMatch(/^re_/);
  });
});
