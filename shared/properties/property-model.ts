import * as z from 'zod';
import { LIST_ORDER_INDEXES, creationOrderKey, entityAttribute, indexKey, itemKey, partitionOf, type ItemKey } from '../db/table-design.js';
import type { PartitionQuery } from '../db/query.js';
import { dateTimeSchema, idSchema, versionSchema, pickFields, type SortDirection } from '../model/primitives.js';
import { echoedFields, type RoundTrip } from '../model/round-trip.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The CRM property model: the schemas of the stored and returned property and of the inputs that
 * change it, their types, the keys of every property item and the item <-> object mappers. Routes
 * build their request and response schemas from these; nothing here knows about HTTP.
 */

/** The ten CRM property data types (spec "CRM property"). */
export const PROPERTY_TYPES = [
  'Text', 'Multi-line Text', 'Number', 'Select One', 'Yes/No', 'Select Multiple', 'Date', 'File', 'Email', 'Phone',
] as const;

/** The objects a property can describe; `ticket` is one product within an order. */
export const OBJECT_TYPES = ['event', 'order', 'ticket', 'contact'] as const;

export const PROPERTY_STATUSES = ['active', 'archived'] as const;

export const propertyTypeSchema = lazy(() => z.enum(PROPERTY_TYPES).meta({ id: 'PropertyType', description: 'Data type of the property values. Immutable.' }));
export const objectTypeSchema = lazy(() => z.enum(OBJECT_TYPES).meta({
  id: 'PropertyObjectType',
  description: 'The object the property describes (`ticket` = one product within an order). Immutable.',
}));
export const propertyStatusSchema = lazy(() => z.enum(PROPERTY_STATUSES).meta({
  description: '`archived` properties stay valid where referenced but should not be used in new forms; they can be restored to `active`.',
}));

export const propertyOptionSchema = lazy(() => z
  .strictObject({
    value: z.string().min(1).max(200).meta({ description: 'Stored identity of the option; unique within the property.' }),
    label: z.string().min(1).max(200).meta({ description: 'Display text. Rename an option by changing its label only.' }),
  })
  .meta({ id: 'PropertyOption' }));

const propertyNameSchema = lazy(() => z.string().trim().min(1).max(200).meta({
  description: 'Unique among the properties of the same objectType, case-insensitively.',
  example: 'T-shirt size',
}));
const descriptionSchema = lazy(() => z.string().max(2000));
const optionsSchema = lazy(() => z.array(propertyOptionSchema).max(500).meta({
  description: 'Required (at least one, unique `value`) for `Select One` and `Select Multiple`; forbidden for every other type.',
}));

export const propertySchema = lazy(() => z
  .object({
    id: idSchema,
    type: propertyTypeSchema,
    name: z.string(),
    description: z.string().optional(),
    status: propertyStatusSchema,
    objectType: objectTypeSchema,
    options: z.array(propertyOptionSchema).optional().meta({ description: 'Present only for `Select One` and `Select Multiple`.' }),
    version: versionSchema,
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'Property', description: 'A CRM property: a typed field hosts keep on events, orders, tickets or contacts.' }));

/** What a property's GET returns that its writes do not set (API.md "Round trips and references"). */
export const PROPERTY_ROUND_TRIP: RoundTrip = {
  resource: 'property', readOnly: { id: undefined, createdAt: undefined }, immutable: ['type', 'objectType'], derived: ['updatedAt'],
};

export const createPropertyBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(propertySchema.shape, PROPERTY_ROUND_TRIP, 'create'),
    type: propertyTypeSchema,
    name: propertyNameSchema,
    objectType: objectTypeSchema,
    description: descriptionSchema.optional(),
    options: optionsSchema.optional(),
    status: propertyStatusSchema.optional().meta({ description: 'Default `active`.' }),
  })
  .meta({
    id: 'CreateProperty',
    example: { type: 'Select One', name: 'T-shirt size', objectType: 'ticket', options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }] },
  }));

export const updatePropertyBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(propertySchema.shape, PROPERTY_ROUND_TRIP, 'update'),
    name: propertyNameSchema.optional(),
    status: propertyStatusSchema.optional(),
    options: optionsSchema.optional(),
    description: descriptionSchema.nullable().optional().meta({ description: '`null` removes the description.' }),
  })
  .meta({ id: 'UpdateProperty', example: { name: 'Shirt size', status: 'archived' } }));

export type PropertyType = (typeof PROPERTY_TYPES)[number];
export type ObjectType = (typeof OBJECT_TYPES)[number];
export type PropertyStatus = (typeof PROPERTY_STATUSES)[number];
export type PropertyOption = z.infer<typeof propertyOptionSchema>;
export type Property = z.infer<typeof propertySchema>;
/** What a client may send to create a property. */
export type NewPropertyInput = z.infer<typeof createPropertyBodySchema>;
/** What a client may send to update a property: absent fields stay, `description: null` removes it. */
export type PropertyPatch = z.infer<typeof updatePropertyBodySchema>;

/** Types whose values are chosen from `options`. */
export const SELECT_PROPERTY_TYPES: readonly PropertyType[] = ['Select One', 'Select Multiple'];

/** True for `Select One` and `Select Multiple`, the only types that carry options. */
export function isSelectType(type: PropertyType): boolean {
  return SELECT_PROPERTY_TYPES.includes(type);
}

export const PROPERTY_ENTITY = 'Property';
export const PROPERTY_NAME_GUARD_ENTITY = 'PropertyNameGuard';
export const PROPERTY_BY_FILTER_ENTITY = 'PropertyByFilter';

/** Names clash case-insensitively (spec), so the guard is keyed on this normal form. */
export function normalizePropertyName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** What a list of properties can be narrowed by. */
export interface PropertyListFilter {
  objectType?: ObjectType | undefined;
  status?: PropertyStatus | undefined;
}

export type PropertySort = 'createdAt' | 'name' | 'updatedAt';

/**
 * The filter combination a list partition holds: `` (none), `OBJECT#<objectType>`, `STATUS#<status>`
 * or `OBJECT#<objectType>#STATUS#<status>`.
 */
function filterSegment(filter: PropertyListFilter): string {
  return [
    ...(filter.objectType !== undefined ? [`OBJECT#${filter.objectType}`] : []),
    ...(filter.status !== undefined ? [`STATUS#${filter.status}`] : []),
  ].join('#');
}

/** The three filtered partitions a property belongs to (the unfiltered one is its main item). */
function filtersOf(property: Pick<Property, 'objectType' | 'status'>): PropertyListFilter[] {
  return [{ objectType: property.objectType }, { status: property.status }, { objectType: property.objectType, status: property.status }];
}

/**
 * Name order: lower-cased name, then objectType (names are unique per objectType, so this is unique
 * in the workspace). NUL sorts before every character a name can hold, so `a` comes before `a b`.
 */
function nameOrder(property: Pick<Property, 'name' | 'objectType'>): string {
  return `${normalizePropertyName(property.name)}\u0000${property.objectType}`;
}

/** Update order: the ISO timestamp (fixed width), then the id for ties. */
function updatedOrder(property: Pick<Property, 'updatedAt' | 'id'>): string {
  return `${property.updatedAt}#${property.id}`;
}

/**
 * Key builders: the only place property keys are spelled.
 * - property: `WS#<ws>#PROPERTY` / `<id>`, listed in creation order through `byCreatedAt` (GSI3, same
 *   partition, `<createdAt>#<id>`), also placed in the
 *   name order (GSI1 `WS#<ws>#PROPERTIES_BY_NAME` / `<lower(name)>\0<objectType>`) and the update
 *   order (GSI2 `WS#<ws>#PROPERTIES_BY_UPDATED` / `<updatedAt>#<id>`).
 * - filter projections (keys only, written in the same transaction as the property): one per
 *   filter combination the property matches, `WS#<ws>#PROPERTY_BY#<filter>` / `<id>`, placed in the
 *   creation order (GSI3) and the same two orders under `WS#<ws>#PROPERTIES_BY_NAME#<filter>` and `..._BY_UPDATED#<filter>`. So
 *   every list x sort x filter is one partition of the table or of an index, in its order.
 * - name guard: `WS#<ws>#PROPNAME` / `<objectType>#<lower(name)>`: one item per taken name; its
 *   existence makes a name unique per objectType (conditional put in the same transaction).
 */
export const propertyKeys = {
  propertyPartition: (workspaceId: string) => `WS#${workspaceId}#PROPERTY`,
  property: (workspaceId: string, id: string): ItemKey => itemKey(propertyKeys.propertyPartition(workspaceId), id),
  byFilterPartition: (workspaceId: string, filter: PropertyListFilter) => `WS#${workspaceId}#PROPERTY_BY#${filterSegment(filter)}`,
  byFilter: (workspaceId: string, filter: PropertyListFilter, id: string): ItemKey => itemKey(propertyKeys.byFilterPartition(workspaceId, filter), id),
  byNamePartition: (workspaceId: string, filter: PropertyListFilter) => suffixed(`WS#${workspaceId}#PROPERTIES_BY_NAME`, filter),
  byUpdatedPartition: (workspaceId: string, filter: PropertyListFilter) => suffixed(`WS#${workspaceId}#PROPERTIES_BY_UPDATED`, filter),
  nameGuard: (workspaceId: string, objectType: ObjectType, name: string): ItemKey =>
    itemKey(`WS#${workspaceId}#PROPNAME`, `${objectType}#${normalizePropertyName(name)}`),
};

function suffixed(partition: string, filter: PropertyListFilter): string {
  const segment = filterSegment(filter);
  return segment === '' ? partition : `${partition}#${segment}`;
}

/** The index attributes that place an item of `filter`'s list in the name and update orders. */
function orderKeys(workspaceId: string, filter: PropertyListFilter, property: Property): Record<string, string> {
  return {
    ...indexKey(LIST_ORDER_INDEXES.byName, propertyKeys.byNamePartition(workspaceId, filter), nameOrder(property)),
    ...indexKey(LIST_ORDER_INDEXES.byUpdatedAt, propertyKeys.byUpdatedPartition(workspaceId, filter), updatedOrder(property)),
  };
}

/** The stored item of a property: its key, its places in the name and update orders, the public fields. */
export function toPropertyItem(workspaceId: string, property: Property): Record<string, unknown> {
  const key = propertyKeys.property(workspaceId, property.id);
  return { ...key, ...creationOrderKey(key, property.createdAt, property.id), ...orderKeys(workspaceId, {}, property), ...entityAttribute(PROPERTY_ENTITY), ...property };
}

/** The name guard of a property. */
export function toNameGuardItem(workspaceId: string, property: Property): Record<string, unknown> {
  return { ...propertyKeys.nameGuard(workspaceId, property.objectType, property.name), ...entityAttribute(PROPERTY_NAME_GUARD_ENTITY), propertyId: property.id };
}

/** Maps a stored item back to the public shape, dropping key attributes and absent optionals. */
export function fromPropertyItem(item: Record<string, unknown>): Property {
  return pickFields<Property>(item, propertySchema);
}

/** The id a filter projection points at. */
export function projectedPropertyId(item: Record<string, unknown>): string {
  return item.propertyId as string;
}

/**
 * How the filter projections follow a property change: the projections of `after` to put (all of
 * them: each carries the name and update order, which move with every write) and the keys of the
 * projections of `before` that `after` no longer has (its status moved). Never the same key twice, so
 * the result fits in one TransactWrite with the property.
 */
export function projectionChanges(workspaceId: string, before: Property | undefined, after: Property): { puts: Record<string, unknown>[]; deletes: ItemKey[] } {
  const puts = filtersOf(after).map((filter) => ({
    ...propertyKeys.byFilter(workspaceId, filter, after.id),
    ...creationOrderKey(propertyKeys.byFilter(workspaceId, filter, after.id), after.createdAt, after.id),
    ...orderKeys(workspaceId, filter, after),
    ...entityAttribute(PROPERTY_BY_FILTER_ENTITY),
    propertyId: after.id,
    objectType: after.objectType,
    status: after.status,
  }));
  const kept = new Set(filtersOf(after).map((filter) => propertyKeys.byFilterPartition(workspaceId, filter)));
  const deletes = before === undefined ? [] : filtersOf(before)
    .filter((filter) => !kept.has(propertyKeys.byFilterPartition(workspaceId, filter)))
    .map((filter) => propertyKeys.byFilter(workspaceId, filter, before.id));
  return { puts, deletes };
}

/**
 * The partition (of the table or of an index) that holds exactly the properties of `filter`, in the
 * order of `sort`; `projected` when its items are filter projections (the properties are then read
 * with one BatchGet).
 */
export function propertyListQuery(workspaceId: string, filter: PropertyListFilter, sort: PropertySort, direction: SortDirection): { query: PartitionQuery; projected: boolean } {
  const projected = filterSegment(filter) !== '';
  const ascending = direction === 'asc';
  if (sort === 'name') return { projected, query: { index: LIST_ORDER_INDEXES.byName, partition: propertyKeys.byNamePartition(workspaceId, filter), ascending } };
  if (sort === 'updatedAt') return { projected, query: { index: LIST_ORDER_INDEXES.byUpdatedAt, partition: propertyKeys.byUpdatedPartition(workspaceId, filter), ascending } };
  const partition = projected ? propertyKeys.byFilterPartition(workspaceId, filter) : propertyKeys.propertyPartition(workspaceId);
  return { projected, query: { index: 'byCreatedAt', partition, ascending } };
}

/** The workspace of a stored property item (`WS#<ws>#PROPERTY`), for backfills. */
export function workspaceOfPropertyItem(item: Record<string, unknown>): string {
  const match = /^WS#(.+)#PROPERTY$/.exec(partitionOf(item));
  if (!match?.[1]) throw new Error('Not a property item.');
  return match[1];
}
