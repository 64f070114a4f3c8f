/**
 * Makes the generated document small: zod-openapi inlines every schema that has no `id`, so the
 * date-time pattern, the id pattern and every repeated field schema appear once per use. These passes
 * move what repeats into `components` and leave a `$ref`: run on the built document, so the route
 * schemas the functions bundle stay as they are.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is one subschema, or a map or list of them (JSON Schema 2020-12). */
const SCHEMA_KEYWORDS = ['items', 'additionalProperties', 'not', 'propertyNames', 'contains', 'unevaluatedProperties', 'if', 'then', 'else'] as const;
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs'] as const;
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/** A schema slot: where a schema sits and the property name it describes (for naming), if any. */
interface Slot {
  readonly get: () => Json;
  readonly set: (schema: Json) => void;
  readonly hint: string | undefined;
  /** The component schema it sits in, if any: names a shape whose field name is taken (`PropertyStatus`). */
  readonly owner?: string | undefined;
}

/** Every subschema slot of `schema` (not `schema` itself), outermost first. */
function subschemaSlots(schema: Json, hint: string | undefined, out: Slot[], owner?: string): void {
  for (const keyword of SCHEMA_KEYWORDS) {
    const child = schema[keyword];
    if (!isObject(child)) continue;
    const childHint = keyword === 'items' && hint ? `${hint}Item` : hint;
    out.push({ get: () => schema[keyword] as Json, set: (value) => { schema[keyword] = value; }, hint: childHint, owner });
    subschemaSlots(child, childHint, out, owner);
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const [name, child] of Object.entries(map)) {
      if (!isObject(child)) continue;
      out.push({ get: () => map[name] as Json, set: (value) => { map[name] = value; }, hint: keyword === 'properties' ? name : undefined, owner });
      subschemaSlots(child, keyword === 'properties' ? name : undefined, out, owner);
    }
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((child, index) => {
      if (!isObject(child)) return;
      out.push({ get: () => list[index] as Json, set: (value) => { list[index] = value; }, hint, owner });
      subschemaSlots(child, hint, out, owner);
    });
  }
}

/** Every schema slot of the document: parameters, bodies, responses and inside the component schemas. */
function schemaSlots(document: Json): Slot[] {
  const out: Slot[] = [];
  const visitMedia = (content: unknown, hint: string | undefined) => {
    if (!isObject(content)) return;
    for (const media of Object.values(content)) {
      if (!isObject(media) || !isObject(media.schema)) continue;
      out.push({ get: () => media.schema as Json, set: (value) => { media.schema = value; }, hint });
      subschemaSlots(media.schema, hint, out);
    }
  };
  const visitParameters = (parameters: unknown) => {
    if (!Array.isArray(parameters)) return;
    for (const parameter of parameters) {
      if (!isObject(parameter) || !isObject(parameter.schema)) continue;
      const hint = typeof parameter.name === 'string' ? parameter.name : undefined;
      out.push({ get: () => parameter.schema as Json, set: (value) => { parameter.schema = value; }, hint });
      subschemaSlots(parameter.schema, hint, out);
    }
  };
  for (const item of Object.values((document.paths ?? {}) as Json)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      visitParameters(operation.parameters);
      if (isObject(operation.requestBody)) visitMedia(operation.requestBody.content, undefined);
      for (const response of Object.values((operation.responses ?? {}) as Json)) {
        if (isObject(response)) visitMedia(response.content, undefined);
      }
    }
  }
  const components = (document.components ?? {}) as Json;
  visitParameters(Object.values((components.parameters ?? {}) as Json));
  for (const response of Object.values((components.responses ?? {}) as Json)) {
    if (isObject(response)) visitMedia(response.content, undefined);
  }
  for (const [name, schema] of Object.entries((components.schemas ?? {}) as Json)) {
    if (isObject(schema)) subschemaSlots(schema, name, out, name);
  }
  return out;
}

/** A schema without the annotations that may differ between uses of the same shape. */
function coreOf(schema: Json): Json {
  const { description: _description, ...core } = schema;
  return core;
}

const pascal = (text: string) => text.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase()).replace(/^./, (first) => first.toUpperCase());

/** Names for shapes every API user meets; anything else is named after the field it describes. */
function knownName(core: Json): string | undefined {
  if (core.type === 'string' && core.format === 'date-time' && Object.keys(core).every((key) => ['type', 'format', 'pattern'].includes(key))) {
    return String(core.pattern).includes('[+-]') ? 'DateTimeWithOffset' : 'UtcDateTime';
  }
  if (core.type === 'string' && core.format === 'date' && Object.keys(core).every((key) => ['type', 'format', 'pattern'].includes(key))) return 'Date';
  if (core.type === 'string' && core.pattern === '^[a-f0-9]{24}$' && Object.keys(core).every((key) => ['type', 'pattern', 'example'].includes(key))) return 'Id';
  return undefined;
}

const SCHEMA_REF = '#/components/schemas/';

/** The component schema a `$ref` names, if it names one. */
export const componentName = (ref: unknown): string | undefined => (typeof ref === 'string' && ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : undefined);

/** A plain type's name: `Text`, `Integer`, ... */
const TYPE_NAMES: Readonly<Record<string, string>> = { string: 'Text', integer: 'Integer', number: 'Number', boolean: 'Boolean' };

/**
 * A name that says what a shape is, for a shape that fields of different names share (`Text200`, `Uri`,
 * `NullableText200`, `DateTimeList`, a reference's own name), or undefined when the shape says too little
 * for a name (an object, a union): then the field it describes most often names it.
 */
function shapeName(core: Json, bare = false): string | undefined {
  const keys = Object.keys(core);
  const only = (...allowed: string[]) => keys.every((key) => allowed.includes(key));
  const known = knownName(core);
  if (known) return known;
  if (typeof core.$ref === 'string' && only('$ref')) return componentName(core.$ref);
  if (Array.isArray(core.type) && core.type.length === 2 && core.type[1] === 'null') {
    const inner = shapeName({ ...core, type: core.type[0] }, bare);
    return inner && `Nullable${inner}`;
  }
  if (core.type === 'string' && core.format === 'uri' && only('type', 'format', 'minLength', 'maxLength')) return 'Uri';
  if (core.type === 'integer' && only('type', 'minimum', 'exclusiveMinimum', 'maximum') && typeof core.maximum === 'number') {
    const lowest = typeof core.minimum === 'number' ? core.minimum : typeof core.exclusiveMinimum === 'number' ? core.exclusiveMinimum + 1 : undefined;
    if (lowest !== undefined) return `Integer${lowest}To${core.maximum}`;
  }
  if (core.type === 'object' && only('type', 'propertyNames', 'additionalProperties') && isObject(core.additionalProperties) && Object.keys(core.additionalProperties).length === 0) return 'JsonObject';
  if (typeof core.type === 'string' && TYPE_NAMES[core.type] && only('type', 'minLength', 'maxLength')) {
    // A bare type (`Integer`) names a note's shapes (`ComputedInteger`), never a field's value alone.
    if (typeof core.maxLength === 'number') return `${TYPE_NAMES[core.type]}${core.maxLength}`;
    return bare ? TYPE_NAMES[core.type] : undefined;
  }
  const [value, nothing, ...more] = Array.isArray(core.anyOf) ? core.anyOf as unknown[] : [];
  if (only('anyOf') && more.length === 0 && isObject(value) && isObject(nothing) && nothing.type === 'null' && Object.keys(nothing).length === 1) {
    const inner = shapeName(value, bare);
    return inner && `Nullable${inner}`;
  }
  if (core.type === 'array' && isObject(core.items) && only('type', 'items', 'minItems', 'maxItems')) {
    const inner = shapeName(core.items, bare);
    return inner && `${inner}List`;
  }
  return undefined;
}

/** `{data: X}`, the answer envelope of one `X`: named `XEnvelope`. */
function envelopeName(core: Json): string | undefined {
  const properties = core.properties;
  if (core.type !== 'object' || !isObject(properties) || Object.keys(properties).length !== 1 || !isObject(properties.data)) return undefined;
  const name = Object.keys(properties.data).length === 1 ? componentName(properties.data.$ref) : undefined;
  return name && `${name}Envelope`;
}

/** A branch of a union told apart by its `type` (`{type: {const: 'Yes/No'}}` in `FormElement`): `YesNoFormElement`. */
function variantName(core: Json, hint: string | undefined): string | undefined {
  const type = isObject(core.properties) && isObject(core.properties.type) ? core.properties.type.const : undefined;
  return typeof type === 'string' && hint ? `${pascal(type)}${pascal(hint)}` : undefined;
}

/** The resource a component schema describes: `UpdateProperty`, `CreateProperty` and `Property` are all `Property`. */
export const resourceOf = (component: string | undefined) => component?.replace(/^(Create|Update|Edit|Revise|Duplicate|Record|Submit|Submitted|Public)(?=[A-Z])/, '').replace(/(Output|Patch|List|Settings|WithSecret)$/, '');

/** Field names that say what a value is only together with the resource that holds it. */
const GENERIC_FIELDS: ReadonlySet<string> = new Set([
  'status', 'type', 'method', 'reason', 'name', 'email', 'description', 'required', 'currency', 'url', 'events',
  'id', 'version', 'page', 'rows', 'options', 'image', 'images', 'content', 'properties', 'placeholder', 'dropdown', 'total',
]);

/** Below this many bytes a `$ref` saves too little to be worth a name. */
const MIN_SHARED_BYTES = 40;
const refLength = (name: string) => `{"$ref":"#/components/schemas/${name}"}`.length;

/**
 * Moves every schema shape that appears more than once (ignoring `description`) into
 * `components.schemas` and refers to it, largest saving first, until nothing repeated is worth a
 * name. A use that had its own description keeps it next to the `$ref` (allowed in OpenAPI 3.1).
 *
 * Names say what the component is: a well-known shape (`DateTime`, `Id`), an answer envelope
 * (`FormEnvelope`), a union branch by its `type` (`YesNoFormElement`), the field it describes when
 * every use is a field of that name, else the shape (`Text200`, `NullableUri`). `notes` names the
 * described shapes whose description is a note many fields carry (`ReadOnly` for the round-trip
 * note of server-set fields: `ReadOnlyDateTime`).
 */
export function shareRepeatedSchemas(document: Json, notes: Readonly<Record<string, string>> = {}): void {
  shareSchemas(document, false, notes);
  shareSchemas(document, true, notes);
}

/** The schema with its top-level keys sorted, so that key order does not tell two uses apart. */
const sortedKeys = (schema: Json): Json => Object.fromEntries(Object.entries(schema).sort(([a], [b]) => a.localeCompare(b)));

/**
 * One sharing pass. Without descriptions: shapes, each use keeping its own description. With them: the
 * uses that repeat a shape and its description alike (a `$ref` with the same description on many
 * fields, `Read-only, set by the server...`) become one described component.
 */
function shareSchemas(document: Json, withDescriptions: boolean, notes: Readonly<Record<string, string>>): void {
  const components = (document.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Json;
  for (;;) {
    const groups = new Map<string, { core: Json; slots: Slot[]; hints: Map<string, number> }>();
    for (const slot of schemaSlots(document)) {
      const schema = slot.get();
      if (withDescriptions ? typeof schema.description !== 'string' : typeof schema.$ref === 'string') continue;
      const core = withDescriptions ? sortedKeys(schema) : coreOf(schema);
      // A shape shared with its description saves the description too: count it as part of the size.
      const key = JSON.stringify(core);
      if (key.length < MIN_SHARED_BYTES) continue;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { core, slots: [], hints: new Map() }));
      group.slots.push(slot);
      if (slot.hint) group.hints.set(slot.hint, (group.hints.get(slot.hint) ?? 0) + 1);
    }
    let best: { key: string; saving: number } | undefined;
    for (const [key, group] of groups) {
      if (group.slots.length < 2) continue;
      const saving = (group.slots.length - 1) * key.length - group.slots.length * refLength('Shared');
      if (saving > 0 && (!best || saving > best.saving || (saving === best.saving && key < best.key))) best = { key, saving };
    }
    if (!best) return;
    const group = groups.get(best.key)!;
    const hints = [...group.hints].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const hint = hints[0]?.[0];
    const oneField = new Set(hints.map(([field]) => field.toLowerCase())).size <= 1;
    const note = withDescriptions ? notes[String(group.core.description)] : undefined;
    const shape = withDescriptions ? coreOf(group.core) : group.core;
    const base = note
      ? `${note}${shapeName(shape, true) ?? pascal(hint ?? '')}`
      : (withDescriptions ? undefined : knownName(shape) ?? envelopeName(shape) ?? variantName(shape, hint)) ?? (oneField ? undefined : shapeName(shape)) ?? pascal(hint ?? 'Shared');
    // A name taken by another shape, or a field name that means nothing without its resource (`status`,
    // `type`, `method`): the resource its uses belong to names it (`PropertyStatus`, `PaymentMethod`).
    const owners = new Set(group.slots.flatMap((slot) => resourceOf(slot.owner) ?? []));
    const [owner] = owners;
    const owned = owners.size === 1 && owner && !base.startsWith(owner) ? `${owner}${base}` : undefined;
    const generic = !note && hint !== undefined && base === pascal(hint) && GENERIC_FIELDS.has(hint);
    let name = (base in schemas || generic) && owned ? owned : base;
    for (let suffix = 2; name in schemas; suffix += 1) name = `${base}${suffix}`;
    // One description for every use goes into the component; differing ones stay next to each `$ref`.
    const descriptions = new Set(group.slots.map((slot) => slot.get().description));
    const [shared] = descriptions;
    const uniform = descriptions.size === 1 && typeof shared === 'string';
    schemas[name] = uniform ? { description: shared, ...structuredClone(group.core) } : structuredClone(group.core);
    for (const slot of group.slots) {
      const { description } = slot.get();
      slot.set(typeof description === 'string' && !uniform ? { $ref: `#/components/schemas/${name}`, description } : { $ref: `#/components/schemas/${name}` });
    }
  }
}

/**
 * Moves every parameter used by more than one operation into `components.parameters`, named after
 * the parameter and where it goes (`IdempotencyKeyHeader`, `CursorQuery`, `FormIdPath`). Parameters
 * that share a name but not a definition keep the most used one shared and the others inline.
 */
export function shareRepeatedParameters(document: Json): void {
  const operations = Object.values((document.paths ?? {}) as Json).flatMap((item) => (isObject(item) ? Object.values(item).filter(isObject) : []));
  const uses = new Map<string, { parameter: Json; count: number }>();
  for (const operation of operations) {
    for (const parameter of (operation.parameters ?? []) as Json[]) {
      if (typeof parameter.$ref === 'string') continue;
      const key = JSON.stringify(parameter);
      const use = uses.get(key) ?? { parameter, count: 0 };
      use.count += 1;
      uses.set(key, use);
    }
  }
  const components = (document.components ??= {}) as Json;
  const shared = new Map<string, string>();
  const taken = new Set<string>();
  for (const [key, use] of [...uses].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))) {
    if (use.count < 2) continue;
    const name = `${pascal(String(use.parameter.name))}${pascal(String(use.parameter.in))}`;
    if (taken.has(name)) continue;
    taken.add(name);
    shared.set(key, name);
  }
  if (shared.size === 0) return;
  const parameters = (components.parameters ??= {}) as Json;
  for (const [key, name] of [...shared].sort((a, b) => a[1].localeCompare(b[1]))) parameters[name] = JSON.parse(key);
  for (const operation of operations) {
    if (!Array.isArray(operation.parameters)) continue;
    operation.parameters = operation.parameters.map((parameter: Json) => {
      const name = shared.get(JSON.stringify(parameter));
      return name ? { $ref: `#/components/parameters/${name}` } : parameter;
    });
  }
}

/**
 * Moves every example used by more than one answer or body (the same resource returned by its create,
 * read and update) into `components.examples`, named after the resource it shows (Swagger UI lists the
 * name in each operation's examples: `Form`, not `CreateForm` under a GET), else after the first
 * operation that uses it.
 */
export function shareRepeatedExamples(document: Json): void {
  const medias: { media: Json; owner: string }[] = [];
  for (const item of Object.values((document.paths ?? {}) as Json)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      const operationName = pascal(String(operation.operationId));
      const contents = [isObject(operation.requestBody) ? operation.requestBody.content : undefined, ...Object.values((operation.responses ?? {}) as Json).map((response) => (isObject(response) ? response.content : undefined))];
      for (const content of contents) {
        if (!isObject(content)) continue;
        for (const media of Object.values(content)) {
          if (!isObject(media) || media.example === undefined) continue;
          // An answer envelope (`{data: Form}`, shared as `FormEnvelope` or not yet) shows its `data`'s resource.
          const schema = isObject(media.schema) ? media.schema : {};
          const data = isObject(schema.properties) && isObject(schema.properties.data) ? componentName(schema.properties.data.$ref) : undefined;
          const owner = data ?? componentName(schema.$ref)?.replace(/Envelope$/, '') ?? operationName;
          medias.push({ media, owner });
        }
      }
    }
  }
  const byExample = new Map<string, { media: Json; owner: string }[]>();
  for (const entry of medias) {
    const key = JSON.stringify(entry.media.example);
    if (key.length < 200) continue;
    byExample.set(key, [...(byExample.get(key) ?? []), entry]);
  }
  const components = (document.components ??= {}) as Json;
  for (const [key, entries] of byExample) {
    if (entries.length < 2) continue;
    const examples = (components.examples ??= {}) as Json;
    let name = (entries[0] as { owner: string }).owner;
    for (let suffix = 2; name in examples; suffix += 1) name = `${(entries[0] as { owner: string }).owner}${suffix}`;
    examples[name] = { value: JSON.parse(key) };
    for (const { media } of entries) {
      delete media.example;
      media.examples = { [name]: { $ref: `#/components/examples/${name}` } };
    }
  }
}

/** Below this many bytes saved, a union keeps its branches whole. */
const MIN_BASE_SAVING = 300;

/**
 * In a union of closed objects (`oneOf` or `anyOf` of `{type: object, additionalProperties: false}`), moves the
 * properties every branch declares identically into one `<Name>Base` schema each branch takes through
 * `allOf`; `unevaluatedProperties: false` keeps each branch as closed as before (JSON Schema 2020-12).
 * The form element unions repeat eight common fields in each of their twenty-odd branches.
 */
export function shareCommonBranchProperties(document: Json): void {
  const components = (document.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Json;
  const unions: { schema: Json; hint: string }[] = [];
  for (const [name, schema] of Object.entries(schemas)) if (isObject(schema)) unions.push({ schema, hint: name });
  for (const slot of schemaSlots(document)) unions.push({ schema: slot.get(), hint: slot.hint ?? 'Union' });
  const bases = new Map<string, string>();
  for (const { schema, hint } of unions) {
    const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf';
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length < 3) continue;
    const closed = branches.every((branch) => isObject(branch) && branch.type === 'object' && branch.additionalProperties === false && isObject(branch.properties) && branch.allOf === undefined);
    if (!closed) continue;
    const objects = branches as (Json & { properties: Json; required?: string[] })[];
    const [first, ...rest] = objects;
    if (!first) continue;
    const isRequired = (branch: { required?: string[] }, name: string) => (branch.required ?? []).includes(name);
    const common = Object.keys(first.properties).filter((name) => {
      const text = JSON.stringify(first.properties[name]);
      return rest.every((branch) => JSON.stringify(branch.properties[name]) === text && isRequired(branch, name) === isRequired(first, name));
    });
    const commonBytes = common.reduce((sum, name) => sum + name.length + JSON.stringify(first.properties[name]).length, 0);
    if (common.length === 0 || commonBytes * (objects.length - 1) < MIN_BASE_SAVING) continue;
    const base: Json = { type: 'object', properties: Object.fromEntries(common.map((name) => [name, first.properties[name]])) };
    const baseRequired = common.filter((name) => isRequired(first, name));
    if (baseRequired.length > 0) base.required = baseRequired;
    const key = JSON.stringify(base);
    let name = bases.get(key);
    if (!name) {
      name = `${pascal(hint)}Base`;
      for (let suffix = 2; name in schemas; suffix += 1) name = `${pascal(hint)}Base${suffix}`;
      schemas[name] = base;
      bases.set(key, name);
    }
    schema[keyword] = objects.map((branch) => {
      const { type: _type, properties, required, additionalProperties: _closed, ...others } = branch;
      const own = Object.fromEntries(Object.entries(properties).filter(([property]) => !common.includes(property)));
      const ownRequired = (required ?? []).filter((property) => !common.includes(property));
      return {
        allOf: [{ $ref: `#/components/schemas/${name}` }],
        ...others,
        type: 'object',
        properties: own,
        ...(ownRequired.length > 0 ? { required: ownRequired } : {}),
        unevaluatedProperties: false,
      };
    });
  }
}

/** Rewrites every `$ref` to a component schema in `node` through `alias` (in place). */
function redirectRefs(node: unknown, alias: ReadonlyMap<string, string>): void {
  if (Array.isArray(node)) return node.forEach((child) => redirectRefs(child, alias));
  if (!isObject(node)) return;
  if (typeof node.$ref === 'string') {
    const target = alias.get(node.$ref);
    if (target) node.$ref = target;
  }
  for (const value of Object.values(node)) redirectRefs(value, alias);
}

/**
 * A component schema's shape as a reader of the document needs it: `additionalProperties: false`
 * dropped (zod-openapi closes answer objects and leaves request objects open, the only difference
 * of most `...Output` twins), references seen through `alias`. What an answer promises beyond its
 * request form stays apart: fields with a default are required in answers (they always carry them),
 * and answers' date-times are UTC only (`Z`); merging those would make the typed client's answer
 * fields optional and its date-times looser.
 */
function comparable(node: unknown, alias: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((child) => comparable(child, alias));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = key === '$ref' && typeof value === 'string' ? alias.get(value) ?? value : comparable(value, alias);
  }
  return out;
}

/**
 * Merges component schemas that describe the same shape into one: zod-openapi writes an `...Output`
 * twin of every input schema whose answer form differs in anything, and for most the only difference
 * is `additionalProperties: false` (or a reference to another such twin).
 * Every reference to a merged schema points at the one kept (the first declared, the input form).
 */
export function mergeTwinSchemas(document: Json): void {
  const components = (document.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Json;
  const alias = new Map<string, string>();
  const refOf = (name: string) => `#/components/schemas/${name}`;
  for (let changed = true; changed; ) {
    changed = false;
    const byShape = new Map<string, string>();
    for (const name of Object.keys(schemas)) {
      if (alias.has(refOf(name))) continue;
      const key = JSON.stringify(comparable(schemas[name], alias));
      const kept = byShape.get(key);
      if (kept) {
        alias.set(refOf(name), refOf(kept));
        changed = true;
      } else {
        byShape.set(key, name);
      }
    }
  }
  // Chains (a -> b -> c) resolve to their end before the rewrite.
  for (const [from, to] of alias) {
    let end = to;
    while (alias.has(end)) end = alias.get(end) as string;
    alias.set(from, end);
  }
  for (const from of alias.keys()) delete schemas[from.slice(refOf('').length)];
  redirectRefs(document, alias);
}

/** Every parameter of the document: the operations' own and the shared ones. */
function parametersOf(document: Json): Json[] {
  const operations = Object.values((document.paths ?? {}) as Json).flatMap((item) => (isObject(item) ? Object.values(item).filter(isObject) : []));
  const own = operations.flatMap((operation) => (Array.isArray(operation.parameters) ? operation.parameters.filter(isObject) : []));
  return [...own, ...Object.values(((document.components as Json | undefined)?.parameters ?? {}) as Json).filter(isObject)];
}

/**
 * One description per parameter, on the parameter, where Swagger UI and the generated client show it:
 * dropped from the schema when it repeats the parameter's own (zod-openapi writes the field's
 * description on both), moved up when only the schema has one (a parameter zod describes through a
 * refined or piped schema, such as the checkouts' `filters`).
 */
export function dropRepeatedParameterDescriptions(document: Json): void {
  for (const parameter of parametersOf(document)) {
    const schema = parameter.schema;
    if (!isObject(schema) || typeof schema.description !== 'string') continue;
    if (parameter.description === undefined) parameter.description = schema.description;
    if (schema.description === parameter.description) delete schema.description;
  }
}

/**
 * Drops the bounds zod writes on every integer, `-(2^53 - 1)` and `2^53 - 1` (the safe-integer range,
 * beyond which JSON numbers lose precision anyway): they say nothing to an API user, and Swagger UI
 * showed the bound as the example value. Other bounds (`minimum: 0`, `maximum: 100`) stay.
 */
export function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropSafeIntegerBounds);
  if (!isObject(node)) return;
  const integer = node.type === 'integer' || (Array.isArray(node.type) && node.type.includes('integer'));
  if (integer && node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (integer && node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  for (const value of Object.values(node)) dropSafeIntegerBounds(value);
}

/**
 * Drops a `pattern` on an integer or number: JSON Schema applies it to strings only, so it says nothing
 * there. zod writes one for query parameters read as digit strings and typed as integers
 * (`pageSize: {type: integer, pattern: ^-?\\d+$}`), where it read as a rule the value broke.
 */
export function dropPatternsOnNumbers(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropPatternsOnNumbers);
  if (!isObject(node)) return;
  if ((node.type === 'integer' || node.type === 'number') && typeof node.pattern === 'string') delete node.pattern;
  for (const value of Object.values(node)) dropPatternsOnNumbers(value);
}

/** Keywords that make a branch more than one plain type with its bounds: such a branch keeps its `anyOf`. */
const COMPOSING_KEYWORDS = ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'const', 'if'];

/**
 * Writes unions of plain types the short way JSON Schema 2020-12 allows, meaning the same:
 * `anyOf: [{type: 'string', maxLength: 200}, {type: 'null'}]` becomes `type: ['string', 'null'], maxLength: 200`
 * (an `enum` takes `null` as one more value), and `anyOf` of `{type: 'number', const: 8}`, `{..., const: 9}`
 * becomes `type: 'number', enum: [8, 9]`. zod writes the long form for `.nullable()` and `z.union` of literals.
 */
export function shortenPlainUnions(document: Json): void {
  for (const slot of schemaSlots(document)) shortenUnion(slot.get());
  for (const schema of Object.values(((document.components as Json | undefined)?.schemas ?? {}) as Json)) if (isObject(schema)) shortenUnion(schema);
}

function shortenUnion(schema: Json): void {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || !branches.every(isObject)) return;
  const { anyOf: _anyOf, ...rest } = schema;
  const collides = (branch: Json) => Object.keys(branch).some((key) => key in rest);
  const plain = (branch: Json) => typeof branch.type === 'string' && branch.type !== 'null' && !COMPOSING_KEYWORDS.some((key) => key in branch);
  const isNull = (branch: Json) => branch.type === 'null' && Object.keys(branch).length === 1;
  const [first, second] = branches as Json[];
  if (branches.length === 2 && first && second && (isNull(first) || isNull(second))) {
    const value = isNull(first) ? second : first;
    if (!plain(value) || collides(value)) return;
    delete schema.anyOf;
    Object.assign(schema, value, { type: [value.type, 'null'] }, Array.isArray(value.enum) ? { enum: [...value.enum, null] } : {});
    return;
  }
  const type = (branches[0] as Json).type;
  const literals = branches.every((branch) => Object.keys(branch).length === 2 && branch.type === type && 'const' in branch);
  if (typeof type !== 'string' || !literals || 'type' in rest || 'enum' in rest) return;
  delete schema.anyOf;
  Object.assign(schema, { type, enum: (branches as Json[]).map((branch) => branch.const) });
}

/**
 * Titles each branch of a union told apart by its `type` (`{type: {const: 'Yes/No'}}`) with that type,
 * on the component a branch refers to or on the branch itself: Swagger UI lists a union's branches as
 * `#0`, `#1`, ... and shows a branch's title beside its number (`#7 Yes/No` among the form elements).
 */
export function titleTypedBranches(document: Json): void {
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Json;
  const targetOf = (branch: Json): Json | undefined => {
    const name = componentName(branch.$ref);
    const target = name === undefined ? branch : schemas[name];
    return isObject(target) ? target : undefined;
  };
  const unions = [...schemaSlots(document).map((slot) => slot.get()), ...Object.values(schemas).filter(isObject)];
  for (const union of unions) {
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = union[keyword];
      if (!Array.isArray(branches)) continue;
      for (const branch of branches) {
        const target = isObject(branch) ? targetOf(branch) : undefined;
        const type = target && isObject(target.properties) && isObject(target.properties.type) ? target.properties.type.const : undefined;
        if (target && typeof type === 'string' && target.title === undefined) target.title = type;
      }
    }
  }
}
