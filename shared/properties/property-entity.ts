import { TABLE_KEYS } from '../db/table-design.js';

/** The ten CRM property data types (spec "CRM property"). */
export const PROPERTY_TYPES = [
  'Text', 'Multi-line Text', 'Number', 'Select One', 'Yes/No', 'Select Multiple', 'Date', 'File', 'Email', 'Phone',
] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** The objects a property can describe; `ticket` is one product within an order. */
export const OBJECT_TYPES = ['event', 'order', 'ticket', 'contact'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export const PROPERTY_STATUSES = ['active', 'archived'] as const;
export type PropertyStatus = (typeof PROPERTY_STATUSES)[number];

/** Types whose values are chosen from `options`. */
export const SELECT_PROPERTY_TYPES: readonly PropertyType[] = ['Select One', 'Select Multiple'];

export interface PropertyOption {
  value: string;
  label: string;
}

export interface Property {
  id: string;
  type: PropertyType;
  name: string;
  description?: string;
  status: PropertyStatus;
  objectType: ObjectType;
  options?: PropertyOption[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

export const PROPERTY_ENTITY = 'Property';
export const PROPERTY_NAME_GUARD_ENTITY = 'PropertyNameGuard';

/** True for `Select One` and `Select Multiple`, the only types that carry options. */
export function isSelectType(type: PropertyType): boolean {
  return SELECT_PROPERTY_TYPES.includes(type);
}

/** Names clash case-insensitively (spec), so the guard is keyed on this normal form. */
export function normalizePropertyName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * Key builders: the only place property keys are spelled.
 * - property: `WS#<ws>#PROPERTY` / `<id>`: a Query on the partition lists by creation time.
 * - name guard: `WS#<ws>#PROPNAME` / `<objectType>#<lower(name)>`: one item per taken name; its
 *   existence is what makes a name unique per objectType (conditional put in the same transaction).
 */
export const propertyKeys = {
  propertyPartition: (workspaceId: string) => `WS#${workspaceId}#PROPERTY`,
  property: (workspaceId: string, id: string) => ({
    [TABLE_KEYS.partitionKey]: propertyKeys.propertyPartition(workspaceId),
    [TABLE_KEYS.sortKey]: id,
  }),
  nameGuard: (workspaceId: string, objectType: ObjectType, name: string) => ({
    [TABLE_KEYS.partitionKey]: `WS#${workspaceId}#PROPNAME`,
    [TABLE_KEYS.sortKey]: `${objectType}#${normalizePropertyName(name)}`,
  }),
};

/** The stored item of a property: its key, entity type and the public fields. */
export function toPropertyItem(workspaceId: string, property: Property): Record<string, unknown> {
  return { ...propertyKeys.property(workspaceId, property.id), [TABLE_KEYS.entityType]: PROPERTY_ENTITY, ...property };
}

/** Maps a stored item back to the public shape, dropping key attributes and absent optionals. */
export function fromPropertyItem(item: Record<string, unknown>): Property {
  return {
    id: item.id as string,
    type: item.type as PropertyType,
    name: item.name as string,
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
    status: item.status as PropertyStatus,
    objectType: item.objectType as ObjectType,
    ...(Array.isArray(item.options) ? { options: item.options as PropertyOption[] } : {}),
    version: item.version as number,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
