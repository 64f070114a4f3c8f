import { ValidationError, type ErrorDetail } from '../errors.js';
import { newId } from '../ids.js';
import { sameContent } from '../model/round-trip.js';
import {
  isSelectType, type NewPropertyInput, type Property, type PropertyOption, type PropertyPatch, type PropertyType,
} from './property-model.js';

/**
 * The options rule of the spec: required (at least one, unique `value`) for `Select One` and
 * `Select Multiple`, forbidden for every other type. Returns every violation with its path.
 */
export function optionIssues(type: PropertyType, options: readonly PropertyOption[] | undefined): ErrorDetail[] {
  if (!isSelectType(type)) {
    return options === undefined ? [] : [{ path: 'options', message: `options are only allowed for Select One and Select Multiple properties, not ${type}.` }];
  }
  if (options === undefined || options.length === 0) {
    return [{ path: 'options', message: `${type} properties need at least one option.` }];
  }
  const issues: ErrorDetail[] = [];
  const seen = new Set<string>();
  options.forEach((option, index) => {
    if (seen.has(option.value)) issues.push({ path: `options[${index}].value`, message: `The option value "${option.value}" is used more than once.` });
    seen.add(option.value);
  });
  return issues;
}

function throwIfAny(issues: ErrorDetail[]): void {
  if (issues.length > 0) throw new ValidationError(issues);
}

/** Builds a new, active property at version 1, or throws a ValidationError naming every broken rule. */
export function buildProperty(input: NewPropertyInput, now: Date = new Date()): Property {
  throwIfAny(optionIssues(input.type, input.options));
  const timestamp = now.toISOString();
  return {
    id: newId(now),
    type: input.type,
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    status: input.status ?? 'active',
    objectType: input.objectType,
    ...(input.options !== undefined ? { options: input.options } : {}),
    version: 1,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
}

/**
 * Applies a patch to a property. Returns `undefined` when the patch changes nothing (no write, no
 * version bump); otherwise the next property with `version + 1`. `type` and `objectType` never change
 * here (`checkEchoed` refuses another value). Archived properties may be restored (`archived` -> `active`).
 */
export function applyPropertyPatch(current: Property, patch: PropertyPatch, now: Date = new Date()): Property | undefined {
  if (patch.options !== undefined) throwIfAny(optionIssues(current.type, patch.options));
  const { description: _description, ...rest } = current;
  const description = patch.description === undefined ? current.description : patch.description ?? undefined;
  const next: Property = {
    ...rest,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(patch.status !== undefined ? { status: patch.status } : {}),
    ...(patch.options !== undefined ? { options: patch.options } : {}),
  };
  if (sameContent(next, current)) return undefined;
  return { ...next, version: current.version + 1, updatedAt: now.toISOString() };
}
