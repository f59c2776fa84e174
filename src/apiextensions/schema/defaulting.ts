// Structural defaulting: a property missing from an object gets a copy of its schema's
// `default`, recursively through properties, items and additionalProperties (kube applies
// this to request bodies and to objects read from storage). A null where the schema is not
// nullable counts as missing: it gets the default, or is dropped when there is none
// (structuraldefaulting.PruneNonNullableNullsWithoutDefaults).
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { setKey } from '../../apimachinery/patch/index.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function applyDefaults(v: unknown, s: Schema): void {
  if (isObject(v)) {
    const props = s.properties ?? {};
    for (const [k, p] of Object.entries(props)) {
      if (Object.hasOwn(v, k) && v[k] === null && p.nullable !== true) {
        if (p.default === undefined || p.default === null) delete v[k];
        else setKey(v, k, structuredClone(p.default));
      }
      if (!Object.hasOwn(v, k) && p.default !== undefined && p.default !== null) setKey(v, k, structuredClone(p.default));
      const child = Object.hasOwn(v, k) ? v[k] : undefined;
      if (child !== undefined) applyDefaults(child, p);
    }
    const ap = s.additionalProperties;
    if (typeof ap === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (Object.hasOwn(props, k)) continue;
        if (child === null && ap.nullable !== true) delete v[k];
        else applyDefaults(child, ap as Schema);
      }
    }
  } else if (Array.isArray(v) && s.items !== undefined) {
    for (const item of v) applyDefaults(item, s.items as Schema);
  }
}
