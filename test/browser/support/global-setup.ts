import startDynamoDb from '../../integration/support/global-setup.js';
import { ensureChromium } from './chromium.js';

/** Chromium first (it may need installing), then the same DynamoDB Local setup the integration tests use. */
export default async function setup(): Promise<() => Promise<void>> {
  ensureChromium();
  return startDynamoDb();
}
