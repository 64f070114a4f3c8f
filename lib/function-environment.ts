import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';
import { reachableModules } from './source-graph.js';

/** What a deployment hands its functions (CloudFormation tokens at synth time). */
export interface DeploymentSettings {
  readonly imagesBucketName: string;
  readonly imagesBaseUrl: string;
  readonly webhookSecretsKeyArn: string;
  readonly imageUploadsBucketName: string;
}

/**
 * The runtime modules that read deployment settings from the environment, with the variables each
 * needs. A function gets the variables of every module its entry can load, so a group that starts to
 * use one (checkouts resolving image URLs through the blob store) gets its configuration with it.
 */
export const MODULE_ENVIRONMENT: Readonly<Record<string, (settings: DeploymentSettings) => Record<string, string>>> = {
  'shared/blob-store/index.ts': (settings) => ({ IMAGES_BUCKET: settings.imagesBucketName, IMAGES_BASE_URL: settings.imagesBaseUrl }),
  'shared/webhooks/webhook-secrets.ts': (settings) => ({ WEBHOOK_SECRETS_KEY_ARN: settings.webhookSecretsKeyArn }),
  'shared/blob-store/uploads.ts': (settings) => ({ IMAGE_UPLOADS_BUCKET: settings.imageUploadsBucketName, IMAGES_BUCKET: settings.imagesBucketName }),
};

/** The environment variables the function with this entry needs from the deployment. */
export function deploymentEnvironment(entry: string, settings: DeploymentSettings): Record<string, string> {
  const modules = reachableModules(entry);
  const environment: Record<string, string> = {};
  for (const [module, variables] of Object.entries(MODULE_ENVIRONMENT)) {
    // A renamed module must not silently drop its configuration from every function.
    if (!existsSync(join(REPO_ROOT, module))) throw new Error(`MODULE_ENVIRONMENT names ${module}, which does not exist`);
    if (modules.has(module)) Object.assign(environment, variables(settings));
  }
  return environment;
}
