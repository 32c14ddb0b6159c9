import canonicalizeModule from 'canonicalize';

// canonicalize is CommonJS with a default export; under NodeNext the function arrives wrapped.
const canonicalize = (canonicalizeModule as unknown as { default?: (v: unknown) => string | undefined }).default ??
  (canonicalizeModule as unknown as (v: unknown) => string | undefined);

/** RFC 8785 canonical JSON: the same value always gives the same string (cache keys, CAS hashes). */
export function canonicalJson(value: unknown): string {
  return canonicalize(value) ?? 'null';
}
