import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '../../../shared/aws/lambda-credential-provider.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the Lambda credential provider', () => {
  it('reads the execution role credentials Lambda puts in the environment', async () => {
    // Prepare
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'session');
    // Act
    const credentials = await defaultProvider()();
    // Assess
    expect(credentials).toMatchObject({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' });
  });

  it('fails loudly, with the SDK\'s own error, when the environment has none', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    await expect(defaultProvider()()).rejects.toMatchObject({ name: 'CredentialsProviderError' });
  });
});
