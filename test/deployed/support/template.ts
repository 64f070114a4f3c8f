import { refTarget } from '../../support/cfn-ref.js';

/**
 * A synthesized CloudFormation template, read the way CloudFormation reads it: resources by type and
 * the intrinsic functions our stacks use, resolved against the physical values a deployment assigns.
 * Anything else fails loudly, so a template feature the tier does not understand is never ignored.
 */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown; Export?: { Name: unknown } }>;
}

export function resourcesOfType(template: CfnTemplate, type: string): [string, CfnResource][] {
  return Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
}

export function propertiesOf(template: CfnTemplate, logicalId: string): Record<string, unknown> {
  const resource = template.Resources[logicalId];
  if (!resource) throw new Error(`Template has no resource ${logicalId}`);
  return resource.Properties ?? {};
}

export { refTarget };

export interface ResolveContext {
  /** Physical value of `Ref` to a logical id or pseudo parameter. */
  ref(logicalId: string): string;
  getAtt(logicalId: string, attribute: string): string;
  importValue(exportName: string): string;
}

/** Resolves intrinsic functions in `value` (deeply) to plain JSON. */
export function resolveValue(value: unknown, context: ResolveContext): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, context));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1) {
    const [fn] = keys as [string];
    const argument = record[fn];
    switch (fn) {
      case 'Ref':
        return context.ref(argument as string);
      case 'Fn::GetAtt': {
        const [id, attribute] = (typeof argument === 'string' ? argument.split('.') : argument) as [string, string];
        return context.getAtt(id, attribute);
      }
      case 'Fn::Join': {
        const [separator, parts] = argument as [string, unknown[]];
        return (resolveValue(parts, context) as unknown[]).map(String).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = argument as [unknown, unknown];
        return (resolveValue(list, context) as unknown[])[Number(resolveValue(index, context))];
      }
      case 'Fn::Split': {
        const [separator, source] = argument as [string, unknown];
        return String(resolveValue(source, context)).split(separator);
      }
      case 'Fn::ImportValue':
        return context.importValue(String(resolveValue(argument, context)));
      case 'Fn::Sub': {
        const [text, variables] = (typeof argument === 'string' ? [argument, {}] : argument) as [string, Record<string, unknown>];
        return text.replace(/\$\{([^}]+)\}/g, (_match, name: string) => {
          if (name in variables) return String(resolveValue(variables[name], context));
          const [id, attribute] = name.split('.') as [string, string | undefined];
          return attribute ? context.getAtt(id, attribute) : context.ref(id);
        });
      }
      default:
        if (fn.startsWith('Fn::') || fn === 'Condition') throw new Error(`The deployed tier does not resolve ${fn}`);
    }
  }
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, resolveValue(item, context)]));
}
