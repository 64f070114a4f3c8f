import { randomBytes } from 'node:crypto';
import { Deployment, REGION, readAssembly, type StackArtifact } from './deployment.js';
import { TemplateGateway } from './gateway.js';
import { LambdaService, type FunctionDefinition } from './lambda-service.js';
import { KmsStandIn } from './kms-stand-in.js';
import { S3StandIn } from './s3-stand-in.js';
import { createTablesFromTemplate } from './tables.js';
import { resourcesOfType } from './template.js';

export interface DeployedApi {
  /** `http://127.0.0.1:<port>/<stage>`: the stage URL, as the `ApiUrl` output without its slash. */
  readonly url: string;
  readonly deployment: Deployment;
  readonly gateway: TemplateGateway;
  readonly lambda: LambdaService;
  readonly s3: S3StandIn;
  readonly kms: KmsStandIn;
  /** Physical table names by logical id (data stack). */
  readonly tables: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

export interface DeployOptions {
  readonly assemblyDir: string;
  readonly dynamoEndpoint: string;
  /** Changes the stacks before anything is deployed (a test of the tier itself mutates a template). */
  readonly mutate?: (stacks: Map<string, StackArtifact>) => void;
}

/** The functions of a stack as Lambda would run them: asset code, handler, resolved environment. */
function functionDefinitions(deployment: Deployment, stack: StackArtifact): Map<string, FunctionDefinition> {
  const definitions = new Map<string, FunctionDefinition>();
  for (const [logicalId, resource] of resourcesOfType(stack.template, 'AWS::Lambda::Function')) {
    const props = resource.Properties ?? {};
    const key = (props.Code as { S3Key?: string } | undefined)?.S3Key;
    const codeDir = key ? stack.assets.get(key) : undefined;
    if (!codeDir) continue; // inline code (e.g. CDK's own custom resources) is never invoked by the API
    const variables = (props.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    definitions.set(logicalId, {
      logicalId,
      functionName: deployment.context(stack).ref(logicalId),
      codeDir,
      handler: String(props.Handler),
      environment: Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, String(deployment.resolve(stack, value))])),
      timeoutSeconds: Number(props.Timeout ?? 3),
      memoryMb: Number(props.MemorySize ?? 128),
      runtime: String(props.Runtime),
    });
  }
  return definitions;
}

/**
 * Deploys a synthesized assembly onto this machine: the data stack's tables on DynamoDB Local, the
 * API stack's functions as Node processes running their asset bundles, its REST API as a gateway
 * built from the template, and its buckets in an S3 stand-in, its KMS keys in a KMS stand-in. The only inputs besides the assembly
 * are what Lambda itself provides (credentials, region) and the DynamoDB and S3 endpoint overrides.
 */
export async function deployAssembly(options: DeployOptions): Promise<DeployedApi> {
  const stacks = readAssembly(options.assemblyDir);
  options.mutate?.(stacks);
  const deployment = new Deployment(stacks, randomBytes(4).toString('hex'));
  const tables = await createTablesFromTemplate(deployment, deployment.stack('-Data'), options.dynamoEndpoint);
  const api = deployment.stack('-Api');
  const credentials = { accessKeyId: 'deployedtier', secretAccessKey: 'deployedtier' };
  const s3 = new S3StandIn(new Set(deployment.physicalNames(deployment.stack('-Data'), 'AWS::S3::Bucket').values()), credentials);
  const s3Endpoint = await s3.listen();
  const kmsKeys = [...stacks.values()].flatMap((stack) => resourcesOfType(stack.template, 'AWS::KMS::Key').map(([logicalId]) => deployment.context(stack).getAtt(logicalId, 'Arn')));
  const kms = new KmsStandIn(new Set(kmsKeys), credentials);
  const kmsEndpoint = await kms.listen();
  const lambda = new LambdaService(functionDefinitions(deployment, api), {
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    // Endpoint overrides: the only variables the tier adds to what the template sets.
    DYNAMODB_ENDPOINT: options.dynamoEndpoint,
    S3_ENDPOINT: s3Endpoint,
    KMS_ENDPOINT: kmsEndpoint,
  });
  const gateway = new TemplateGateway(api.template, deployment.context(api), lambda);
  const url = await gateway.listen();
  return {
    url,
    deployment,
    gateway,
    lambda,
    s3,
    kms,
    tables,
    close: async () => {
      await gateway.close();
      lambda.close();
      await s3.close();
      await kms.close();
    },
  };
}
