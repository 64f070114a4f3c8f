import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveValue, resourcesOfType, type CfnTemplate, type ResolveContext } from './template.js';

export const REGION = 'us-east-1';
export const ACCOUNT_ID = '123456789012';

export interface StackArtifact {
  readonly stackName: string;
  readonly template: CfnTemplate;
  /** Asset object key (`<hash>.zip`, what `Code.S3Key` names) -> its directory in the assembly. */
  readonly assets: ReadonlyMap<string, string>;
}

interface Manifest {
  artifacts: Record<string, { type: string; properties?: { templateFile?: string; file?: string }; dependencies?: string[] }>;
}

/** The stacks of a cloud assembly (`cdk synth` output directory) with their templates and file assets. */
export function readAssembly(dir: string): Map<string, StackArtifact> {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const stacks = new Map<string, StackArtifact>();
  for (const [name, artifact] of Object.entries(manifest.artifacts)) {
    if (artifact.type !== 'aws:cloudformation:stack') continue;
    const template = JSON.parse(readFileSync(join(dir, artifact.properties?.templateFile as string), 'utf8')) as CfnTemplate;
    const assets = new Map<string, string>();
    const assetManifest = manifest.artifacts[`${name}.assets`]?.properties?.file;
    if (assetManifest) {
      const files = (JSON.parse(readFileSync(join(dir, assetManifest), 'utf8')) as { files?: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }> }).files ?? {};
      for (const file of Object.values(files)) {
        for (const destination of Object.values(file.destinations)) assets.set(destination.objectKey, join(dir, file.source.path));
      }
    }
    stacks.set(name, { stackName: name, template, assets });
  }
  return stacks;
}

/** A stable, valid physical name, as CloudFormation generates one (`<stack>-<logicalId>-<suffix>`). */
function physicalName(stackName: string, logicalId: string, suffix: string, lowercase = false): string {
  const name = `${stackName}-${logicalId}-${suffix}`.slice(0, 63);
  return lowercase ? name.toLowerCase() : name;
}

/**
 * The physical side of a deployment of the assembly's stacks: names and ARNs CloudFormation would
 * assign, exports between stacks, and the intrinsic resolution every consumer (tables, functions'
 * environment, gateway) goes through. `suffix` keeps two deployments in one DynamoDB apart.
 */
export class Deployment {
  private readonly exports = new Map<string, { stack: StackArtifact; value: unknown }>();

  constructor(readonly stacks: ReadonlyMap<string, StackArtifact>, readonly suffix: string) {
    for (const stack of stacks.values()) {
      for (const output of Object.values(stack.template.Outputs ?? {})) {
        if (output.Export) this.exports.set(String(resolveValue(output.Export.Name, this.context(stack))), { stack, value: output.Value });
      }
    }
  }

  stack(nameSuffix: string): StackArtifact {
    const found = [...this.stacks.values()].find((stack) => stack.stackName.endsWith(nameSuffix));
    if (!found) throw new Error(`No stack ending in ${nameSuffix}`);
    return found;
  }

  context(stack: StackArtifact): ResolveContext {
    const resourceOf = (logicalId: string) => {
      const resource = stack.template.Resources[logicalId];
      if (!resource) throw new Error(`${stack.stackName} has no resource ${logicalId}`);
      return resource;
    };
    const name = (logicalId: string) => {
      const resource = resourceOf(logicalId);
      const explicit = resource.Properties?.TableName ?? resource.Properties?.BucketName ?? resource.Properties?.FunctionName;
      if (typeof explicit === 'string') return explicit;
      return physicalName(stack.stackName, logicalId, this.suffix, resource.Type === 'AWS::S3::Bucket');
    };
    const context: ResolveContext = {
      ref: (logicalId) => {
        const pseudo: Record<string, string> = {
          'AWS::Region': REGION, 'AWS::AccountId': ACCOUNT_ID, 'AWS::Partition': 'aws', 'AWS::URLSuffix': 'amazonaws.com', 'AWS::StackName': stack.stackName,
        };
        if (pseudo[logicalId]) return pseudo[logicalId] as string;
        const resource = resourceOf(logicalId);
        if (resource.Type === 'AWS::ApiGateway::RestApi') return `api${this.suffix}`.slice(0, 10);
        return name(logicalId);
      },
      getAtt: (logicalId, attribute) => {
        const resource = resourceOf(logicalId);
        const physical = name(logicalId);
        const key = `${resource.Type}.${attribute}`;
        switch (key) {
          case 'AWS::DynamoDB::GlobalTable.Arn':
          case 'AWS::DynamoDB::Table.Arn':
            return `arn:aws:dynamodb:${REGION}:${ACCOUNT_ID}:table/${physical}`;
          case 'AWS::S3::Bucket.Arn':
            return `arn:aws:s3:::${physical}`;
          case 'AWS::S3::Bucket.RegionalDomainName':
            return `${physical}.s3.${REGION}.amazonaws.com`;
          case 'AWS::CloudFront::Distribution.DomainName':
            return `${logicalId.toLowerCase().slice(0, 20)}.cloudfront.test`;
          case 'AWS::Lambda::Function.Arn':
            return `arn:aws:lambda:${REGION}:${ACCOUNT_ID}:function:${physical}`;
          case 'AWS::KMS::Key.Arn':
            return `arn:aws:kms:${REGION}:${ACCOUNT_ID}:key/${physical}`;
          case 'AWS::DynamoDB::GlobalTable.StreamArn':
          case 'AWS::DynamoDB::Table.StreamArn':
            return `arn:aws:dynamodb:${REGION}:${ACCOUNT_ID}:table/${physical}/stream/2026-01-01T00:00:00.000`;
          case 'AWS::SQS::Queue.Arn':
            return `arn:aws:sqs:${REGION}:${ACCOUNT_ID}:${physical}`;
          case 'AWS::SQS::Queue.QueueName':
            return physical;
          case 'AWS::SQS::Queue.QueueUrl':
            return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT_ID}/${physical}`;
          case 'AWS::SNS::Topic.TopicArn':
            return `arn:aws:sns:${REGION}:${ACCOUNT_ID}:${physical}`;
          case 'AWS::IAM::Role.Arn':
            return `arn:aws:iam::${ACCOUNT_ID}:role/${physical}`;
          case 'AWS::ApiGateway::RestApi.RootResourceId':
            return 'root';
          default:
            throw new Error(`The deployed tier does not know ${key}`);
        }
      },
      importValue: (exportName) => {
        const exported = this.exports.get(exportName);
        if (!exported) throw new Error(`No stack exports ${exportName}`);
        return String(resolveValue(exported.value, this.context(exported.stack)));
      },
    };
    return context;
  }

  resolve(stack: StackArtifact, value: unknown): unknown {
    return resolveValue(value, this.context(stack));
  }

  /** Physical name of every resource of a type in a stack, by logical id. */
  physicalNames(stack: StackArtifact, type: string): Map<string, string> {
    const context = this.context(stack);
    return new Map(resourcesOfType(stack.template, type).map(([logicalId]) => [logicalId, context.ref(logicalId)]));
  }
}
