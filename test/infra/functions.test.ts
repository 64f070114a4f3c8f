import { beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_PROBE_KEY, INDEXES, TABLE_KEYS } from '../../shared/db/table-design.js';
import { API_VERSION } from '../../shared/config.js';
import { activeGroups, routesOfGroup } from '../../shared/http/routes.js';
import { API_KEY_LEADING_KEYS } from '../../lib/api-stack.js';
import { OPERATOR_LEADING_KEYS, READ_ACTIONS, WRITE_ACTIONS, XRAY_ACTIONS } from '../../lib/boxoffice-function.js';
import { BUSINESS_METRICS_FUNCTION } from '../../lib/business-metrics.js';
import { businessMetricsFilterPatterns } from '../../shared/observability/business-metrics.js';
import { handlerEntry } from '../../lib/paths.js';
import { WEBHOOK_FUNCTIONS } from '../../lib/webhook-delivery.js';
import { reachableModules } from '../../lib/source-graph.js';
import { CURSOR_SEALING_KEY_LEADING_KEYS, SEALED_CURSOR_MODULE, tableAccessOf } from '../../lib/group-functions.js';
import { refTarget, resourcesOf, synthesize, type SynthesizedApp } from './support/synth.js';

interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

interface SynthFunction {
  logicalId: string;
  properties: Record<string, unknown>;
  environment: Record<string, unknown>;
  statements: PolicyStatement[];
}

let app: SynthesizedApp;
const functions = new Map<string, SynthFunction>();

/** Functions by service name (`boxoffice-<group>`), each with the statements of its role's policies. */
function collectFunctions(): void {
  const policies = Object.values(resourcesOf(app.api, 'AWS::IAM::Policy'));
  for (const [logicalId, resource] of Object.entries(resourcesOf(app.api, 'AWS::Lambda::Function'))) {
    const environment = ((resource.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables) ?? {};
    const service = environment.POWERTOOLS_SERVICE_NAME;
    if (typeof service !== 'string') continue;
    const roleId = refTarget(resource.Properties.Role);
    const statements = policies
      .filter((policy) => (policy.Properties.Roles as unknown[]).some((role) => refTarget(role) === roleId))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement);
    functions.set(service.replace(/^boxoffice-/, ''), { logicalId, properties: resource.Properties, environment, statements });
  }
}

/** The actions a function is allowed (its Deny statements aside). */
function actionsOf(fn: SynthFunction | undefined): string[] {
  return allowsOf(fn).flatMap((statement) => [statement.Action].flat());
}

const allowsOf = (fn: SynthFunction | undefined) => (fn?.statements ?? []).filter((statement) => statement.Effect === 'Allow');
const deniesOf = (fn: SynthFunction | undefined) => (fn?.statements ?? []).filter((statement) => statement.Effect === 'Deny');

const references = (value: unknown, logicalIdPrefix: string) => JSON.stringify(value).includes(logicalIdPrefix);

beforeAll(() => {
  app = synthesize();
  collectFunctions();
});

const groups = activeGroups();
const noTableGroups = groups.filter((group) => tableAccessOf(group) === 'NONE');
const readOnlyGroups = groups.filter((group) => routesOfGroup(group).every((route) => route.method === 'GET') && !noTableGroups.includes(group));
const writingGroups = groups.filter((group) => !readOnlyGroups.includes(group) && !noTableGroups.includes(group));
const postGroups = groups.filter((group) => routesOfGroup(group).some((route) => route.method === 'POST' && route.idempotent !== false));

describe('group functions', () => {
  it('creates exactly one function per active group of the route table, plus the authorizer, the refund reconciler, the event end sweeper, webhook delivery and business metrics', () => {
    // Assess
    expect([...functions.keys()].sort()).toEqual([...groups, 'authorizer', 'refund-reconciler', 'event-end-sweeper', ...WEBHOOK_FUNCTIONS, BUSINESS_METRICS_FUNCTION].sort());
  });

  it('traces every function with X-Ray (active tracing), and X-Ray\'s two actions are the only grant on *', () => {
    // Act
    const wildcardStatements = [...functions.values()].flatMap((fn) => fn.statements.filter((statement) => statement.Resource === '*'));

    // Assess
    for (const fn of functions.values()) expect(fn.properties.TracingConfig).toEqual({ Mode: 'Active' });
    expect(wildcardStatements).toHaveLength(functions.size);
    for (const statement of wildcardStatements) expect(statement.Action).toEqual([...XRAY_ACTIONS]);
  });

  it.each(groups)('%s runs on arm64 with the newest Node.js runtime, from its own handler, with its environment', (group) => {
    // Act
    const fn = functions.get(group);

    // Assess
    expect(fn?.properties.Architectures).toEqual(['arm64']);
    expect(fn?.properties.Runtime).toBe('nodejs24.x');
    expect(fn?.properties.Handler).toBe('index.handler');
    expect(fn?.properties.Timeout).toBeLessThanOrEqual(29);
    expect(fn?.environment).toMatchObject({
      API_VERSION,
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: `boxoffice-${group}`,
    });
    expect(references(fn?.environment.TABLE_NAME, 'ImportValue')).toBe(true);
    expect(references(fn?.environment.IDEMPOTENCY_TABLE_NAME, 'ImportValue')).toBe(true);
  });

  it.each(groups)('%s writes to its own log group with a retention', (group) => {
    // Prepare
    const fn = functions.get(group);
    const logGroupId = refTarget((fn?.properties.LoggingConfig as { LogGroup: unknown }).LogGroup);

    // Act
    const logGroup = resourcesOf(app.api, 'AWS::Logs::LogGroup')[logGroupId as string];

    // Assess
    expect(logGroup?.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  it('gives the images bucket and its public base URL to every group whose code loads the blob store, checkouts and the partner listing included', () => {
    // Prepare
    const usesBlobStore = groups.filter((group) => reachableModules(handlerEntry(group)).has('shared/blob-store/index.ts'));

    // Act
    const withBucket = [...functions.entries()].filter(([, fn]) => fn.environment.IMAGES_BUCKET !== undefined).map(([group]) => group);

    // Assess
    expect(usesBlobStore).toEqual(expect.arrayContaining(['images', 'checkouts', 'partner']));
    expect(withBucket.sort()).toEqual([...usesBlobStore].sort());
    for (const group of usesBlobStore) {
      // The same bucket and base URL as the images function: checkouts answer the image URLs images answer.
      expect(functions.get(group)?.environment.IMAGES_BUCKET).toEqual(functions.get('images')?.environment.IMAGES_BUCKET);
      expect(functions.get(group)?.environment.IMAGES_BASE_URL).toEqual(functions.get('images')?.environment.IMAGES_BASE_URL);
    }
  });
});

describe('least privilege', () => {
  it.each(readOnlyGroups)('%s (GET routes only) can read the table but write nothing, bar the cursor sealing key if it seals cursors', (group) => {
    // Act
    const sealingKey = (statement: PolicyStatement) => JSON.stringify(statement.Condition ?? {}).includes(CURSOR_SEALING_KEY_LEADING_KEYS);
    const actions = actionsOf(functions.get(group));
    const unconditional = allowsOf(functions.get(group)).filter((statement) => !sealingKey(statement))
      .flatMap((statement) => [statement.Action].flat());

    // Assess
    expect(actions).toEqual(expect.arrayContaining([...READ_ACTIONS]));
    for (const write of WRITE_ACTIONS) expect(unconditional).not.toContain(write);
    expect(actions.some((action) => action.startsWith('s3:'))).toBe(false);
  });

  it('lets the groups that seal cursors (the partner listing) put the sealing key item and no other', () => {
    // Prepare
    const sealing = groups.filter((group) => reachableModules(handlerEntry(group)).has(SEALED_CURSOR_MODULE));

    // Act
    const withGrant = [...functions.entries()]
      .filter(([, fn]) => fn.statements.some((statement) => JSON.stringify(statement.Condition ?? {}).includes(CURSOR_SEALING_KEY_LEADING_KEYS)))
      .map(([group]) => group);

    // Assess
    expect(sealing).toContain('partner');
    expect(withGrant.sort()).toEqual([...sealing].sort());
    const statement = functions.get('partner')?.statements.find((candidate) => JSON.stringify(candidate.Condition ?? {}).includes(CURSOR_SEALING_KEY_LEADING_KEYS));
    expect(statement?.Action).toBe('dynamodb:PutItem');
    expect(statement?.Condition).toEqual({ 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['PLATFORM#CURSOR_SEALING_KEY'] } });
  });

  it.each(writingGroups)('%s can write the table', (group) => {
    // Assess
    expect(actionsOf(functions.get(group))).toEqual(expect.arrayContaining([...WRITE_ACTIONS]));
  });

  it('grants the idempotency table only to groups with idempotent POST routes', () => {
    // Act
    const withIdempotency = [...functions.entries()]
      .filter(([, fn]) => fn.statements.some((statement) => references(statement.Resource, 'IdempotencyTable')))
      .map(([group]) => group);

    // Assess
    expect(withIdempotency.sort()).toEqual([...postGroups].sort());
  });

  it('never allows Scan, BatchWriteItem (nothing calls it) or a wildcard action to any function', () => {
    // Act
    const actions = [...functions.values()].flatMap((fn) => actionsOf(fn));

    // Assess
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions).not.toContain('dynamodb:BatchWriteItem');
    expect(actions.filter((action) => action.endsWith('*'))).toEqual([]);
  });

  it('gives the groups whose code never loads the DynamoDB client (docs) no table access at all', () => {
    // Assess
    expect(noTableGroups).toEqual(groups.includes('docs') ? ['docs'] : []);
    for (const group of noTableGroups) {
      expect(actionsOf(functions.get(group)).filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
    }
  });

  it('keeps the system group (health, API info) to reads of the health probe\'s partition, no index', () => {
    // Act
    const tableStatements = allowsOf(functions.get('system')).filter((statement) => statement.Resource !== '*');

    // Assess
    expect(tableStatements).toHaveLength(1);
    expect(tableStatements[0]?.Action).toEqual([...READ_ACTIONS]);
    expect(tableStatements[0]?.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [HEALTH_PROBE_KEY[TABLE_KEYS.partitionKey]] } });
    expect(JSON.stringify(tableStatements[0]?.Resource)).not.toContain('/index/');
  });

  it('denies every function that reaches the table, but the authorizer, the API key items and the operators\' partitions', () => {
    // Prepare
    const reachingTable = [...functions.entries()].filter(([name, fn]) => name !== 'authorizer' && actionsOf(fn).some((action) => READ_ACTIONS.includes(action as (typeof READ_ACTIONS)[number])));

    // Assess
    expect(reachingTable.length).toBeGreaterThanOrEqual(groups.length);
    expect(OPERATOR_LEADING_KEYS).toEqual(expect.arrayContaining(['APIKEY#*', 'PARTNER#*', 'DIRECTORY#WORKSPACES', 'DIRECTORY#PARTNERS', 'WS#*#DIRECTORY#APIKEYS']));
    for (const [name, fn] of reachingTable) {
      const [deny] = deniesOf(fn);
      expect(deny, name).toBeDefined();
      expect(deny?.Action).toEqual(expect.arrayContaining([...READ_ACTIONS, ...WRITE_ACTIONS, 'dynamodb:Scan']));
      expect(deny?.Condition).toEqual({ 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...OPERATOR_LEADING_KEYS] } });
    }
    expect(deniesOf(functions.get('authorizer'))).toEqual([]);
  });

  it('names the table\'s indexes one by one instead of index/*', () => {
    // Act
    const resources = [...functions.values()].flatMap((fn) => fn.statements.map((statement) => JSON.stringify(statement.Resource)));

    // Assess
    expect(resources.some((resource) => resource.includes('/index/*'))).toBe(false);
    for (const index of Object.values(INDEXES)) {
      expect(resources.some((resource) => resource.includes(`/index/${index.indexName}`))).toBe(true);
    }
  });

  it('lets the authorizer GetItem API key items only', () => {
    // Act
    const statements = (functions.get('authorizer')?.statements ?? []).filter((statement) => statement.Resource !== '*');

    // Assess
    expect(statements).toHaveLength(1);
    expect(statements[0]?.Action).toBe('dynamodb:GetItem');
    expect(statements[0]?.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [API_KEY_LEADING_KEYS] } });
    expect(API_KEY_LEADING_KEYS).toBe('APIKEY#*');
  });

  it('lets the images function only put objects into the images bucket (staged uploads: see image-uploads.test.ts)', () => {
    // Act
    const onImages = (functions.get('images')?.statements ?? [])
      .filter((statement) => references(statement.Resource, 'images-bucket-arn') && !references(statement.Resource, 'image-uploads-bucket-arn'))
      .flatMap((statement) => [statement.Action].flat());

    // Assess
    expect(onImages).toEqual(groups.includes('images') ? ['s3:PutObject'] : []);
  });
});

describe('business metrics', () => {
  it('reads the table stream, filtered to outbox events, ledger entries and finished deliveries, and no table item', () => {
    // Prepare
    const fn = functions.get(BUSINESS_METRICS_FUNCTION);

    // Act
    const mappings = Object.values(resourcesOf(app.api, 'AWS::Lambda::EventSourceMapping'))
      .filter((mapping) => references(mapping.Properties.FunctionName, fn?.logicalId ?? '?'));
    const filters = (mappings[0]?.Properties.FilterCriteria as { Filters: { Pattern: string }[] }).Filters;

    // Assess
    expect(mappings).toHaveLength(1);
    // A record that keeps failing is isolated (bisected) rather than dropping its whole batch's counts.
    expect(mappings[0]?.Properties).toMatchObject({ BisectBatchOnFunctionError: true, MaximumRetryAttempts: 2 });
    expect(filters.map((filter) => JSON.parse(filter.Pattern) as unknown)).toEqual(businessMetricsFilterPatterns());
    expect(actionsOf(fn).filter((action) => !XRAY_ACTIONS.includes(action as (typeof XRAY_ACTIONS)[number])).sort())
      .toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);
    expect(fn?.environment.POWERTOOLS_METRICS_NAMESPACE).toBe('Boxoffice/test');
  });
});

describe('event end sweeper', () => {
  it('runs every minute from its own handler, reads and writes the table without Scan or an index', () => {
    // Prepare
    const fn = functions.get('event-end-sweeper');
    const rules = Object.values(resourcesOf(app.api, 'AWS::Events::Rule'));

    // Act
    const sweeperRules = rules.filter((rule) => references(rule.Properties.Targets, fn?.logicalId ?? '?'));

    // Assess
    expect(sweeperRules).toHaveLength(1);
    expect(sweeperRules[0]?.Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(fn?.properties.Architectures).toEqual(['arm64']);
    expect(references(fn?.environment.TABLE_NAME, 'ImportValue')).toBe(true);
    expect(actionsOf(fn)).toEqual(expect.arrayContaining([...READ_ACTIONS, ...WRITE_ACTIONS]));
    expect(actionsOf(fn)).not.toContain('dynamodb:Scan');
    expect(JSON.stringify(fn?.statements.map((statement) => statement.Resource))).not.toContain('/index/');
  });
});

describe('invoke permissions', () => {
  it('lets API Gateway invoke each group function through this API only, with one permission per function', () => {
    // Prepare
    const apiId = Object.keys(resourcesOf(app.api, 'AWS::ApiGateway::RestApi'))[0] as string;

    // Act
    const permissions = Object.values(resourcesOf(app.api, 'AWS::Lambda::Permission'))
      .filter((permission) => permission.Properties.Principal === 'apigateway.amazonaws.com');

    // Assess
    expect(permissions).toHaveLength(groups.length + 1);
    for (const permission of permissions) expect(JSON.stringify(permission.Properties.SourceArn)).toContain(apiId);
  });
});
