/**
 * How every PATCH applies its body: JSON Merge Patch (RFC 7396) at the top level.
 * An absent field keeps its value, `null` removes an optional field, any other value replaces it.
 * Which fields may be `null` is the edge schemas' business (a required field refuses it with 422), so
 * here `null` always removes. `fields` limits the merge to some of the patch's fields (the others are
 * the caller's, e.g. ones it resolves first); by default every field of the patch.
 */
export function mergePatch<T extends object>(target: T, patch: object, fields: readonly string[] = Object.keys(patch)): T {
  const next = { ...target } as Record<string, unknown>;
  const sent = patch as Record<string, unknown>;
  for (const field of fields) {
    const value = sent[field];
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return next as T;
}
