import type { App, Environment } from 'aws-cdk-lib';
import { Tags } from 'aws-cdk-lib';
import { ApiStack } from './api-stack.js';
import { DataStack } from './data-stack.js';
import { addNagChecks } from './nag.js';

export interface BoxofficeAppOptions {
  /** @default 'dev' */
  readonly stage?: string;
  readonly alarmEmail?: string;
  /** The external /health canary. @default true for stage `prod`, false elsewhere */
  readonly healthCanary?: boolean;
  readonly env?: Environment;
}

export interface BoxofficeStacks {
  readonly data: DataStack;
  readonly api: ApiStack;
}

/** Both stacks of one stage, with cdk-nag attached: what `bin/app.ts` deploys and the infra tests inspect. */
export function buildBoxoffice(app: App, options: BoxofficeAppOptions = {}): BoxofficeStacks {
  const stage = options.stage ?? 'dev';
  const env = options.env ? { env: options.env } : {};
  const data = new DataStack(app, `Boxoffice-${stage}-Data`, { stage, ...env, description: `Boxoffice ${stage}: tables and image assets` });
  const api = new ApiStack(app, `Boxoffice-${stage}-Api`, {
    stage,
    ...env,
    description: `Boxoffice ${stage}: REST API, functions and monitoring`,
    table: data.table,
    idempotencyTable: data.idempotencyTable,
    imagesBucketExports: data.imagesBucketExports,
    imageUploadsBucketExports: data.imageUploadsBucketExports,
    imagesBaseUrl: data.imagesBaseUrl,
    webhookSecretsKey: data.webhookSecretsKey,
    healthCanary: options.healthCanary ?? stage === 'prod',
    ...(options.alarmEmail ? { alarmEmail: options.alarmEmail } : {}),
  });
  Tags.of(app).add('app', 'boxoffice');
  Tags.of(app).add('stage', stage);
  addNagChecks(app);
  return { data, api };
}
