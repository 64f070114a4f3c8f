import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildBoxoffice, type BoxofficeStacks } from '../../../lib/boxoffice-app.js';
import { refTarget } from '../../support/cfn-ref.js';

export interface SynthesizedApp {
  stacks: BoxofficeStacks;
  data: Template;
  api: Template;
}

export interface SynthOptions {
  alarmEmail?: string;
  /** @default 'test' */
  stage?: string;
  healthCanary?: boolean;
}

/**
 * Synthesizes both stacks with cdk-nag on (an unacknowledged finding fails here) and bundling off:
 * template assertions do not need the bundles, and bundling a dozen functions takes a minute.
 */
export function synthesize(options: SynthOptions = {}): SynthesizedApp {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stacks = buildBoxoffice(app, {
    stage: options.stage ?? 'test',
    ...(options.alarmEmail ? { alarmEmail: options.alarmEmail } : {}),
    ...(options.healthCanary === undefined ? {} : { healthCanary: options.healthCanary }),
  });
  return { stacks, data: Template.fromStack(stacks.data), api: Template.fromStack(stacks.api) };
}

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** The resources of one type in a template, by logical id. */
export function resourcesOf(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

export { refTarget };

/** Full API path of every API Gateway resource, by logical id (root resource = ''). */
export function resourcePaths(template: Template): Map<string, string> {
  const resources = resourcesOf(template, 'AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const resource = resources[id];
    if (!resource) return '';
    const parent = resource.Properties.ParentId;
    const parentId = refTarget(parent);
    const parentPath = parentId && resources[parentId] ? pathOf(parentId) : '';
    const path = `${parentPath}/${String(resource.Properties.PathPart)}`;
    paths.set(id, path);
    return path;
  };
  for (const id of Object.keys(resources)) pathOf(id);
  return paths;
}

export interface SynthMethod {
  logicalId: string;
  path: string;
  httpMethod: string;
  properties: Record<string, unknown>;
}

/** Every API method with its full path. */
export function apiMethods(template: Template): SynthMethod[] {
  const paths = resourcePaths(template);
  return Object.entries(resourcesOf(template, 'AWS::ApiGateway::Method')).map(([logicalId, method]) => {
    const resourceId = refTarget(method.Properties.ResourceId);
    return {
      logicalId,
      path: (resourceId && paths.get(resourceId)) || '/',
      httpMethod: String(method.Properties.HttpMethod),
      properties: method.Properties,
    };
  });
}
