import * as z from 'zod';
import { ConflictError, ValidationError, type ErrorDetail } from '../errors.js';
import { lazy } from './lazy-schema.js';

/**
 * The round-trip rule (API.md "Round trips and references"): what a GET returns, the matching update
 * accepts back unchanged, and the create accepts as a copy. Each resource names the fields its GET
 * returns that its writes do not set; its body schemas accept them (`echoedFields`), and its service
 * checks them against the stored object on an update (`checkEchoed`) or drops them on a create
 * (`dropEchoed`). A client that reads an object, edits one field and sends it all back never gets a
 * 422 for a field it did not touch.
 */
export interface RoundTrip {
  /** What the resource is called in messages. */
  readonly resource: string;
  /**
   * Set by the server (`id`, `ownerId`/`hostId`, `createdAt`, an invoice's `status`, ...): an update
   * takes the stored value back and refuses another (422, with the hint given here); a create ignores them.
   */
  readonly readOnly: Readonly<Record<string, string | undefined>>;
  /** Fixed at creation (`type`, `objectType`, `isEventForm`): an update takes the stored value back, another is 422. */
  readonly immutable?: readonly string[];
  /**
   * Computed by the server from other fields (`updatedAt`, `minPrice`, totals, `propertyData`): on an
   * update, one the server stores is taken back when it equals the stored value and is 422 otherwise;
   * one computed on read only (not stored) is ignored. A create ignores them.
   */
  readonly derived?: readonly string[];
  /**
   * Read from ANOTHER resource when the object is answered (a checkout's `eventName`, `eventImage`,
   * `formName`): ignored on an update and a create. A rename of that resource changes them without
   * changing this object, so a GET body read before it must still be accepted.
   */
  readonly linked?: readonly string[];
  /** How a field is compared with the stored value, when the GET form differs from the stored one (e.g. computed parts left out). */
  readonly compareAs?: Readonly<Record<string, (value: unknown) => unknown>>;
}

type Shape = Record<string, z.ZodType>;

/** The `version` an update body carries back: the one read, checked like `If-Match`. */
const expectedVersionSchema = lazy(() => z.number().int().meta({
  id: 'ExpectedVersion',
  description: 'The version read: accepted when it is the current one; another is 409 `conflict`, as with `If-Match`.',
}));

/**
 * What the OpenAPI document says of each kind of echoed field, by the name its shared schemas take
 * there (`ReadOnlyDateTime`, `IgnoredId`, `LinkedText`): the note, not the field, is what they share.
 */
export const ECHOED_FIELD_NOTES = {
  ReadOnly: 'Read-only, set by the server: the stored value is accepted back (so a GET body can be sent as is); another value is 422.',
  Ignored: 'Read-only, set by the server: ignored (a copy gets its own).',
  Computed: 'Computed by the server: the value read is accepted back; another is 422.',
  IgnoredComputed: 'Computed by the server: ignored.',
  Linked: 'Read from the linked resource: ignored.',
  Immutable: 'Immutable: the stored value is accepted back; another value is 422.',
} as const;

/**
 * The fields a body schema adds so that it takes a GET body: typed as the GET returns them, optional,
 * and described for the OpenAPI document. `update` bodies also take `version` (the version read) and
 * the immutable fields; spread the result into the body's `strictObject` after its own fields.
 */
export function echoedFields(getShape: Shape, spec: RoundTrip, mode: 'update' | 'create'): Shape {
  const field = (name: string, description: string): [string, z.ZodType] => {
    const schema = getShape[name];
    if (!schema) throw new Error(`${spec.resource}: the GET schema has no field ${name}`);
    return [name, schema.optional().meta({ description })];
  };
  const fields: [string, z.ZodType][] = [];
  for (const name of Object.keys(spec.readOnly)) fields.push(field(name, mode === 'update' ? ECHOED_FIELD_NOTES.ReadOnly : ECHOED_FIELD_NOTES.Ignored));
  for (const name of spec.derived ?? []) {
    // `updatedAt` tells a copy's age (checkEchoed): another one is a newer write.
    const computed = name === 'updatedAt' ? 'Computed by the server: the value read is accepted back; another is 409 `conflict`.' : ECHOED_FIELD_NOTES.Computed;
    fields.push(field(name, mode === 'update' ? computed : ECHOED_FIELD_NOTES.IgnoredComputed));
  }
  for (const name of spec.linked ?? []) fields.push(field(name, ECHOED_FIELD_NOTES.Linked));
  if (mode === 'update') {
    for (const name of spec.immutable ?? []) fields.push(field(name, ECHOED_FIELD_NOTES.Immutable));
    if ('version' in getShape) fields.push(['version', expectedVersionSchema.optional()]);
  } else if ('version' in getShape) {
    fields.push(field('version', ECHOED_FIELD_NOTES.Ignored));
  }
  return Object.fromEntries(fields);
}

/** Stable JSON: object keys sorted, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().flatMap((key) => {
      const entry = (value as Record<string, unknown>)[key];
      return entry === undefined ? [] : [`${JSON.stringify(key)}:${canonical(entry)}`];
    }).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Whether an update leaves a resource as it was: equal content whatever the key order, absent and
 * `undefined` alike. Such an update writes nothing and keeps the version, so other clients holding
 * that version (`If-Match`) get no needless 409.
 */
export function sameContent(next: object, current: object): boolean {
  return canonical(next) === canonical(current);
}

function echoedNames(spec: RoundTrip): string[] {
  return [...Object.keys(spec.readOnly), ...(spec.immutable ?? []), ...(spec.derived ?? []), ...(spec.linked ?? []), 'version'];
}

function without<T extends object>(body: T, names: readonly string[]): T {
  const rest = { ...body } as Record<string, unknown>;
  for (const name of names) delete rest[name];
  return rest as T;
}

/**
 * An update body's echoed fields checked against the stored object, and the body without them: a
 * read-only, immutable or stored computed field that differs is 422 (all of them reported), a `version`
 * that is not the stored one is 409 `conflict` (the client edited an older copy), and so is another
 * `updatedAt`; all are dropped.
 */
export function checkEchoed<T extends object>(stored: object, body: T, spec: RoundTrip): T {
  const sent = body as Record<string, unknown>;
  const current = stored as Record<string, unknown>;
  const same = (name: string) => {
    const as = spec.compareAs?.[name] ?? ((value: unknown) => value);
    return canonical(as(sent[name])) === canonical(as(current[name]));
  };
  // A stale version first: the whole copy is older (its updatedAt too), re-reading is the answer.
  if (sent.version !== undefined && sent.version !== current.version) {
    throw new ConflictError(`The ${spec.resource} is at version ${String(current.version)}, not ${String(sent.version)} (the version sent). Re-read it and retry.`);
  }
  // `updatedAt` tells the copy's age, with or without a version (webhook endpoints have none): another
  // one is a newer write, so a copy sent back without its version is a 409 as it is with it.
  if (sent.updatedAt !== undefined && spec.derived?.includes('updatedAt') && !same('updatedAt')) {
    throw new ConflictError(`The ${spec.resource} was changed at ${String(current.updatedAt)}, after the copy sent was read. Re-read it and retry.`);
  }
  const details: ErrorDetail[] = [];
  for (const [name, hint] of Object.entries(spec.readOnly)) {
    if (sent[name] !== undefined && !same(name)) details.push({ path: name, message: `is read-only${hint ? ` (${hint})` : ''}: send the value you read, or leave it out` });
  }
  for (const name of spec.immutable ?? []) {
    if (sent[name] !== undefined && !same(name)) details.push({ path: name, message: `${name} cannot be changed after creation` });
  }
  for (const name of spec.derived ?? []) {
    if (sent[name] !== undefined && current[name] !== undefined && !same(name)) details.push({ path: name, message: 'is computed by the server: send the value you read, or leave it out' });
  }
  if (details.length > 0) throw new ValidationError(details);
  return without(body, echoedNames(spec));
}

/** A create body without the fields a copy gets afresh (read-only, derived, linked, `version`); immutable ones are create fields. */
export function dropEchoed<T extends object>(body: T, spec: RoundTrip): T {
  return without(body, [...Object.keys(spec.readOnly), ...(spec.derived ?? []), ...(spec.linked ?? []), 'version']);
}
