import { join } from 'node:path';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { takesIdempotencyKey, type RouteGroup } from '../shared/http/route.js';
import { activeGroups, routesOfGroup } from '../shared/http/routes.js';
import { DOCS_ASSETS } from '../shared/http/routes/docs.js';
import { BUNDLED_ASSETS_DIR } from '../functions/docs/docs-assets.js';
import { OPENAPI_DOCUMENT_FILE } from '../shared/openapi/served-document.js';
import { BUNDLED_WIDGET_DIR, WIDGET_FILE_NAME } from '../functions/docs/widget-script.js';
import { widgetCliArgs } from '../widget/build-widget.js';
import { BoxofficeFunction, type TableAccess, type TableScope } from './boxoffice-function.js';
import { CURSOR_SEALING_KEY_ITEM } from '../shared/db/cursor.js';
import { HEALTH_PROBE_KEY, INDEXES, TABLE_KEYS } from '../shared/db/table-design.js';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { REPO_ROOT, handlerEntry } from './paths.js';
import { deploymentEnvironment } from './function-environment.js';
import { reachableModules } from './source-graph.js';
import { SECRET_ENCRYPTION_PURPOSE } from '../shared/webhooks/webhook-secrets.js';

/** The module that seals anonymous callers' cursors: functions that load it may create the sealing key. */
export const SEALED_CURSOR_MODULE = 'shared/db/sealed-cursor.ts';

/** The partition of the cursor sealing key, the one item a function that seals cursors may put. */
export const CURSOR_SEALING_KEY_LEADING_KEYS = CURSOR_SEALING_KEY_ITEM[TABLE_KEYS.partitionKey] as string;

/** The module that encrypts and decrypts webhook secrets: functions that load it get the KMS key. */
export const WEBHOOK_SECRETS_MODULE = 'shared/webhooks/webhook-secrets.ts';

/** One KMS action on the webhook secrets key, and only with the encryption context the code always sends. */
export function webhookSecretsStatement(key: IKey, action: 'kms:Encrypt' | 'kms:Decrypt'): PolicyStatement {
  return new PolicyStatement({
    actions: [action],
    resources: [key.keyArn],
    conditions: { StringEquals: { 'kms:EncryptionContext:purpose': SECRET_ENCRYPTION_PURPOSE } },
  });
}

const INDEX_NAMES = Object.values(INDEXES).map((index) => index.indexName);

/** The module every DynamoDB call goes through: a group whose code never loads it needs no table access. */
export const DYNAMODB_CLIENT_MODULE = 'shared/db/client.ts';

/**
 * Groups whose routes only read get a read-only grant (STYLE: no grantReadWriteData on a reader), and a
 * group whose code never loads the DynamoDB client (docs: static files and a prebuilt document) none.
 */
export function tableAccessOf(group: RouteGroup): TableAccess {
  if (!reachableModules(handlerEntry(group)).has(DYNAMODB_CLIENT_MODULE)) return 'NONE';
  return routesOfGroup(group).every((route) => route.method === 'GET') ? 'RO' : 'RW';
}

/** Groups that touch a few partitions only, and which (the health check's one probe item). */
const LEADING_KEYS: Partial<Record<RouteGroup, readonly string[]>> = { system: [HEALTH_PROBE_KEY[TABLE_KEYS.partitionKey] as string] };

/** The indexes a group may query (every index, or none for a group kept to a few partitions) and its partitions. */
export function tableScopeOf(group: RouteGroup): TableScope {
  const leadingKeys = LEADING_KEYS[group];
  return leadingKeys ? { leadingKeys } : { indexNames: INDEX_NAMES };
}

/** Only groups with a POST honour `Idempotency-Key`, so only they touch the idempotency table. */
export function usesIdempotency(group: RouteGroup): boolean {
  return routesOfGroup(group).some(takesIdempotencyKey);
}

/** Memory per group where the default does not fit (image uploads parse and hash whole files). */
const MEMORY_MB: Partial<Record<RouteGroup, number>> = { images: 1024, docs: 256 };

/** The configured memory of a group's function (MB); `npm run bench` prices Lambda time with it. */
export function memorySizeOf(group: RouteGroup): number {
  return MEMORY_MB[group] ?? 512;
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * Copies the Swagger UI files next to the docs bundle, builds the embeddable widgets' script there
 * with the project's esbuild (the same options as `npm start`), and writes the OpenAPI document there;
 * the docs function reads all three.
 */
export const docsAssetsHooks: ICommandHooks = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir, outputDir) => [
    `mkdir -p "${join(outputDir, BUNDLED_ASSETS_DIR)}"`,
    ...Object.keys(DOCS_ASSETS).map((name) => `cp "${join(inputDir, 'node_modules', 'swagger-ui-dist', name)}" "${join(outputDir, BUNDLED_ASSETS_DIR, name)}"`),
    [join(REPO_ROOT, 'node_modules', 'esbuild', 'bin', 'esbuild'), ...widgetCliArgs(join(outputDir, BUNDLED_WIDGET_DIR, WIDGET_FILE_NAME)), '--log-level=warning']
      .map(shellQuote).join(' '),
    // The OpenAPI document, built here once: the function serves it without the generator or schemas.
    [process.execPath, join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(REPO_ROOT, 'bin', 'build', 'openapi-document.ts'), join(outputDir, OPENAPI_DOCUMENT_FILE)]
      .map(shellQuote).join(' '),
  ],
};

export interface GroupFunctionsProps {
  readonly table: ITableV2;
  readonly idempotencyTable: ITableV2;
  readonly imagesBucket: IBucket;
  readonly imageUploadsBucket: IBucket;
  readonly imagesBaseUrl: string;
  readonly webhookSecretsKey: IKey;
}

/**
 * One function per active group of the route table, each with the least table access its routes
 * need. A group gains a function the moment its first route lands in the table.
 */
export function createGroupFunctions(scope: Construct, props: GroupFunctionsProps): Map<RouteGroup, BoxofficeFunction> {
  const functions = new Map<RouteGroup, BoxofficeFunction>();
  const settings = {
    imagesBucketName: props.imagesBucket.bucketName,
    imagesBaseUrl: props.imagesBaseUrl,
    imageUploadsBucketName: props.imageUploadsBucket.bucketName,
    webhookSecretsKeyArn: props.webhookSecretsKey.keyArn,
  };
  for (const group of activeGroups()) {
    const entry = handlerEntry(group);
    const fn = new BoxofficeFunction(scope, `${pascal(group)}Function`, {
      entry,
      description: `Boxoffice ${group} endpoints: ${routesOfGroup(group).map((route) => `${route.method} ${route.path}`).join(', ')}`.slice(0, 256),
      memorySize: memorySizeOf(group),
      // Derived from the modules the group's code loads, never listed per group by hand.
      environment: { POWERTOOLS_SERVICE_NAME: `boxoffice-${group}`, ...deploymentEnvironment(entry, settings) },
      ...(group === 'docs' ? { commandHooks: docsAssetsHooks } : {}),
    });
    fn.bindTable(props.table, tableAccessOf(group), tableScopeOf(group));
    fn.denyOperatorItems(props.table, INDEX_NAMES);
    if (usesIdempotency(group)) {
      // Powertools reads, creates, completes and (on failure) deletes one record per request.
      fn.bindTable(props.idempotencyTable, 'RW', {}, 'IDEMPOTENCY_TABLE_NAME');
    } else {
      // Never used by the group; set so that the runtime config holds the real name, not its local fallback.
      fn.addEnvironment('IDEMPOTENCY_TABLE_NAME', props.idempotencyTable.tableName);
    }
    if (group === 'images') {
      // Uploads only put new objects (keys are never reused); no read, delete or ACL rights.
      fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [props.imagesBucket.arnForObjects('*')] }));
      // Two-step uploads: sign PUT URLs (a presigned request acts with the signer's rights), read the
      // staged object back (HeadObject, ranged GetObject, CopyObject's source) and delete it.
      fn.addToRolePolicy(new PolicyStatement({
        actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
        resources: [props.imageUploadsBucket.arnForObjects('uploads/*')],
      }));
    }
    if (reachableModules(entry).has(SEALED_CURSOR_MODULE)) {
      // The first process to seal a cursor creates the key (a conditional put), read-only groups included:
      // that one item and nothing else.
      fn.addToRolePolicy(new PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [CURSOR_SEALING_KEY_LEADING_KEYS] } },
      }));
    }
    if (reachableModules(entry).has(WEBHOOK_SECRETS_MODULE)) {
      // API groups only mint secrets (create, rotate): they may encrypt, never decrypt.
      fn.addToRolePolicy(webhookSecretsStatement(props.webhookSecretsKey, 'kms:Encrypt'));
    }
    functions.set(group, fn);
  }
  return functions;
}

export function pascal(name: string): string {
  return name.replace(/(^|[-_])([a-z])/g, (_match, _sep: string, letter: string) => letter.toUpperCase());
}
