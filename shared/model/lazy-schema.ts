/**
 * Deferred construction of zod schemas, for cold starts (issue 16, P1): building a model's schemas is
 * most of what a function does at module load beyond the SDK, and a request needs only the few
 * schemas of its route. `lazy(() => z.object(...))` returns a stand-in that builds the schema
 * on its first use (any property access, `instanceof`, `in`), then is that schema: the built
 * schema's own properties are copied onto the stand-in's target and its prototype set, so the
 * stand-in answers every reflection exactly as the schema does, and the zod registry entry (the
 * `.meta()` of the schema) is given to the stand-in too. Everyone, other schemas included, holds the
 * stand-in, so a schema keeps one identity: the OpenAPI document is the same as with eager schemas.
 *
 * Types are unchanged (`lazy<T>` returns `T`), so `z.output<typeof x>` and every caller work
 * as before.
 */
import { globalRegistry } from 'zod';

/** Stand-in targets not built yet, with their builder and their stand-in. */
const pending = new WeakMap<object, readonly [build: () => object, standIn: object]>();

function ensureBuilt(target: object): void {
  const entry = pending.get(target);
  if (!entry) return;
  pending.delete(target);
  const [build, standIn] = entry;
  const value = build() as object & { _zod?: { constr?: unknown; def?: unknown; parent?: unknown } };
  Object.setPrototypeOf(target, Object.getPrototypeOf(value));
  const internals = value._zod;
  if (internals && typeof internals.constr === 'function') {
    // A zod schema: its closures hold the instance they were initialised on, so the stand-in is
    // initialised from the same definition (the inner schemas are shared, not rebuilt), and takes the
    // built schema's parent link (set by `.meta()`/`.describe()` clones) and registry entry.
    (internals.constr as (this: object, def: unknown) => object).call(standIn, internals.def);
    if (internals.parent !== undefined) (standIn as { _zod: { parent?: unknown } })._zod.parent = internals.parent;
    const meta = globalRegistry.get(value as never);
    if (meta) globalRegistry.add(standIn as never, meta);
  } else {
    Object.defineProperties(target, Object.getOwnPropertyDescriptors(value));
  }
}

const TRAPS = [
  'get', 'set', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'defineProperty', 'deleteProperty', 'getPrototypeOf',
  'setPrototypeOf', 'isExtensible', 'preventExtensions',
] as const;

/** One handler for every stand-in: each operation builds the target first, then is the target's own. */
const handler = Object.fromEntries(TRAPS.map((trap) => [trap, (target: object, ...rest: unknown[]) => {
  ensureBuilt(target);
  return (Reflect[trap] as (...args: unknown[]) => unknown)(target, ...rest);
}])) as ProxyHandler<object>;

/** A schema (or an object of schemas) built on first use; see the module comment. */
export function lazy<T extends object>(build: () => T): T {
  const target = {};
  const standIn = new Proxy(target, handler);
  pending.set(target, [build, standIn]);
  return standIn as T;
}

/** A value (e.g. an object of shared schema fields) computed once, on first call. */
export function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
