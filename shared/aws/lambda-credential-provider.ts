import { fromEnv } from '@aws-sdk/credential-provider-env';
import type { Logger } from '@smithy/types';

/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles (an esbuild alias set in
 * `lib/boxoffice-function.ts`; the local server, the admin CLI and the tests keep the SDK's full chain).
 *
 * Lambda hands every function its execution role's credentials in `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, the first link of the SDK's default chain. The other
 * links (SSO, shared ini files, credential processes, web identity, container and instance metadata)
 * never run there, yet they and the STS/SSO clients they load are 130 KiB of every bundle. Without the
 * variables this throws the SDK's own CredentialsProviderError, so a misconfiguration fails loudly.
 */
export const defaultProvider = (init: { logger?: Logger } = {}) => fromEnv(init);
