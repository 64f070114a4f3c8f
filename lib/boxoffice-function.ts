import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime, Tracing, type FunctionProps } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { API_VERSION } from '../shared/config.js';
import { FUNCTION_TIMEOUT_MS } from '../shared/db/time-budget.js';
import { TABLE_KEYS } from '../shared/db/table-design.js';
import { partnerKeys } from '../shared/partners/partner-model.js';
import { workspaceKeys } from '../shared/workspaces/workspace-model.js';

/** Item reads: single, batched (BatchGet) and queries. */
export const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
/**
 * Item writes and the condition checks of transactions (TransactWriteItems is authorised per contained
 * Put/Update/Delete/ConditionCheck, and only writers transact). No BatchWriteItem: nothing calls it.
 */
export const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'] as const;

/** What active tracing grants every function, on `*` (X-Ray has no resource-level permissions). */
export const XRAY_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'] as const;

/**
 * Table access of a function: read-only groups must not be able to write, whatever their code does, and
 * a function whose code never loads the DynamoDB client gets no item access at all (`NONE`).
 */
export type TableAccess = 'RO' | 'RW' | 'NONE';

/**
 * The partitions only the authorizer (API key items) and the operators' CLI (keys, partners, the
 * directories of workspaces, partners and keys) use: every other function is denied them.
 */
export const OPERATOR_LEADING_KEYS = [
  workspaceKeys.apiKey('*')[TABLE_KEYS.partitionKey] as string,
  partnerKeys.partner('*')[TABLE_KEYS.partitionKey] as string,
  workspaceKeys.workspaceDirectory,
  workspaceKeys.apiKeyDirectory('*'),
  partnerKeys.directory,
] as const;

/** Where a grant applies: the indexes it may query, and (optionally) the only partitions it may touch. */
export interface TableScope {
  readonly indexNames?: readonly string[];
  /** `dynamodb:LeadingKeys` patterns (IAM `StringLike`): the grant holds for these partitions only. */
  readonly leadingKeys?: readonly string[];
}

/**
 * The runtime every function uses. cdk-nag AwsSolutions-L1 asks for the latest Node.js runtime that
 * aws-cdk-lib knows; the bundle targets the same major.
 */
export const NODE_RUNTIME = Runtime.NODEJS_24_X;
export const ESBUILD_TARGET = 'node24';

/** Stack traces in the logs point into the TypeScript sources (the bundle's source map). */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';

/** ESM bundles that contain the AWS SDK need a real `require` for the SDK's CommonJS internals. */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** Replaces the SDK's default credential chain in the bundles: see the module's comment. */
export const LAMBDA_CREDENTIAL_PROVIDER = './shared/aws/lambda-credential-provider.ts';

/** `node:stream/web` loaded on first use in the bundles (only @middy/core imports it): see the module's comment. */
export const LAZY_STREAM_WEB = './shared/aws/stream-web.ts';

/**
 * `@aws-lambda-powertools/jmespath` (and its `/functions`) in the bundles: bare field names only, which is
 * all the idempotency config asks of it; see the module's comment.
 */
export const JMESPATH_FIELD_NAMES = './shared/aws/jmespath-field-names';

/**
 * `@aws-lambda-powertools/tracer` in the bundles of stages deployed without `-c tracer=true`: a Tracer that is
 * never enabled, without the X-Ray SDK; see the module's comment and `shared/observability/tracing.ts`.
 */
export const TRACER_OFF = './shared/aws/tracer-off';

/** `cdk deploy -c tracer=true`: every function bundles and enables Powertools Tracer (see TRACED_BUNDLING). */
export const TRACER_CONTEXT_KEY = 'tracer';

const ALIASES = [
  `@aws-sdk/credential-provider-node=${LAMBDA_CREDENTIAL_PROVIDER}`,
  `node:stream/web=${LAZY_STREAM_WEB}`,
  `@aws-lambda-powertools/jmespath=${JMESPATH_FIELD_NAMES}`,
] as const;

function bundling(tracer: boolean) {
  return {
    format: OutputFormat.ESM,
    target: ESBUILD_TARGET,
    mainFields: ['module', 'main'],
    minify: true,
    sourceMap: true,
    // The map holds positions and file names only: with `NODE_OPTIONS=--enable-source-maps` Node reads and
    // parses it at every cold start, and the sources' text (1.5 MB of forms' 2.2 MB map) cost ~14 ms of it.
    // Stack traces need no source text.
    sourcesContent: false,
    externalModules: [],
    banner: ESM_REQUIRE_BANNER,
    // Legal comments go to index.mjs.LEGAL.txt beside the bundle, not into the code Lambda parses at every
    // cold start (esbuild keeps every `@preserve`/`@license` comment: ~600 bytes, mostly coverage markers).
    esbuildArgs: {
      '--alias': tracer ? [...ALIASES] : [...ALIASES, `@aws-lambda-powertools/tracer=${TRACER_OFF}`],
      '--legal-comments': 'external',
    },
  } as const satisfies BundlingOptions;
}

/**
 * The esbuild settings of every function: minified ESM for the latest Node.js, the AWS SDK bundled (it
 * loads faster than the runtime's copy, STACK.md), source maps, and the SDK's credential chain cut to
 * the environment variables Lambda sets (relative paths resolve from the project root, where CDK runs
 * esbuild). `npm run bench` and the bundle-size test bundle with exactly these.
 */
export const BUNDLING = bundling(false);

/** `BUNDLING` with Powertools Tracer and its X-Ray SDK bundled: the stages deployed with `-c tracer=true`. */
export const TRACED_BUNDLING = bundling(true);

/** Whether the app was synthesized with `-c tracer=true` (the CLI passes `true` as a string). */
export function tracerRequested(scope: Construct): boolean {
  const value: unknown = scope.node.tryGetContext(TRACER_CONTEXT_KEY);
  return value === true || value === 'true';
}

export interface BoxofficeFunctionProps {
  /** Absolute path of the TypeScript entry exporting `handler`. */
  readonly entry: string;
  readonly description: string;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default FUNCTION_TIMEOUT_MS.api (10 s; API Gateway gives up at 29 s): the time budget's own number */
  readonly timeout?: Duration;
  readonly environment?: Record<string, string>;
  /** @default one month */
  readonly logRetention?: RetentionDays;
  /** Extra bundling steps (e.g. copying static files next to the bundle). */
  readonly commandHooks?: ICommandHooks;
}

/**
 * A Lambda function the Boxoffice way: ARM64, latest Node.js, bundled with `BUNDLING`, an explicit
 * log group with retention, and table grants through `bindTable` only.
 */
export class BoxofficeFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: BoxofficeFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const bundlingOptions = tracerRequested(scope) ? TRACED_BUNDLING : BUNDLING;
    const functionProps: Partial<FunctionProps> = {
      architecture: Architecture.ARM_64,
      runtime: NODE_RUNTIME,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.millis(FUNCTION_TIMEOUT_MS.api),
      description: props.description,
      logGroup,
      // X-Ray active tracing: every invocation is a trace segment (init, invocation, overhead), joined to
      // API Gateway's stage trace. Powertools Tracer adds the handler's and each AWS call's subsegments only
      // with `-c tracer=true`: its X-Ray SDK is ~120 KiB of every bundle, which the 450 KiB budget cannot take
      // by default; each request's DynamoDB calls and capacity are in its log line either way.
      tracing: Tracing.ACTIVE,
    };
    super(scope, id, {
      ...functionProps,
      entry: props.entry,
      handler: 'handler',
      environment: {
        API_VERSION,
        NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
        ...props.environment,
      },
      bundling: {
        ...bundlingOptions,
        mainFields: [...bundlingOptions.mainFields],
        externalModules: [...bundlingOptions.externalModules],
        ...(props.commandHooks ? { commandHooks: props.commandHooks } : {}),
      },
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: `X-Ray active tracing: ${XRAY_ACTIONS.join(' and ')} have no resource-level permissions. The infra tests check that they are the only actions any function is granted on *.`,
    });
  }

  /**
   * Grants exactly the table access the function's routes need, and tells it the table name. Not
   * `grantReadData`: that adds `Scan` and `<table>/index/*`; here the indexes are named one by one and
   * Scan is absent, so "no Scan on request paths" holds in IAM too.
   */
  bindTable(table: ITableV2, access: TableAccess, scope: TableScope = {}, environmentVariable = 'TABLE_NAME'): void {
    this.addEnvironment(environmentVariable, table.tableName);
    if (access === 'NONE') return;
    const conditions = scope.leadingKeys ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...scope.leadingKeys] } } } : {};
    this.addToRolePolicy(new PolicyStatement({
      actions: access === 'RO' ? [...READ_ACTIONS] : [...READ_ACTIONS, ...WRITE_ACTIONS],
      resources: [table.tableArn],
      ...conditions,
    }));
    const indexNames = scope.indexNames ?? [];
    if (indexNames.length > 0) {
      this.addToRolePolicy(new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: indexNames.map((indexName) => `${table.tableArn}/index/${indexName}`),
        ...conditions,
      }));
    }
  }

  /**
   * An explicit Deny on the partitions only the authorizer and the operators' CLI use: API key items and
   * the operators' directories (`OPERATOR_LEADING_KEYS`). Whatever a function's grants, and whatever its
   * code does (an anonymous route included), it can neither read nor write them.
   */
  denyOperatorItems(table: ITableV2, indexNames: readonly string[]): void {
    this.addToRolePolicy(new PolicyStatement({
      effect: Effect.DENY,
      actions: [...READ_ACTIONS, ...WRITE_ACTIONS, 'dynamodb:BatchWriteItem', 'dynamodb:Scan'],
      resources: [table.tableArn, ...indexNames.map((indexName) => `${table.tableArn}/index/${indexName}`)],
      conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...OPERATOR_LEADING_KEYS] } },
    }));
  }
}
