import type { PaymentProcessor } from './payment-processor.js';
import { sandboxProcessor } from './sandbox-processor.js';

/**
 * The seam for a real processor: `PAYMENT_PROCESSOR` names the adapter (default `sandbox`). A real
 * adapter is added to `ADAPTERS` (reading its secret through config at cold start); tests may swap
 * the processor with `usePaymentProcessor`.
 */
const ADAPTERS: Record<string, () => PaymentProcessor> = {
  sandbox: () => sandboxProcessor,
};

let override: PaymentProcessor | undefined;

/** The processor of this process. Unknown names fail loudly instead of silently using the sandbox. */
export function paymentProcessor(): PaymentProcessor {
  if (override) return override;
  const name = process.env.PAYMENT_PROCESSOR || 'sandbox';
  const adapter = ADAPTERS[name];
  if (!adapter) throw new Error(`Unknown PAYMENT_PROCESSOR "${name}"`);
  return adapter();
}

/** Replaces the processor (tests); `undefined` restores the configured one. */
export function usePaymentProcessor(processor: PaymentProcessor | undefined): void {
  override = processor;
}
