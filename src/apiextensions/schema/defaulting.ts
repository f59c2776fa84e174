// Structural defaulting: a property missing from an object gets a copy of its schema's
// `default`, recursively through properties, items and additionalProperties (kube applies
// this to request bodies and to objects read from storage).
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { setKey } from '../../apimachinery/patch/index.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function applyDefaults(v: unknown, s: Schema): void {
  if (isObject(v)) {
    const props = s.properties ?? {};
    for (const [k, p] of Object.entries(props)) {
      if (!Object.hasOwn(v, k) && p.default !== undefined) setKey(v, k, structuredClone(p.default));
      const child = Object.hasOwn(v, k) ? v[k] : undefined;
      if (child !== undefined) applyDefaults(child, p);
    }
    const ap = s.additionalProperties;
    if (typeof ap === 'object') {
      for (const [k, child] of Object.entries(v)) if (!(k in props)) applyDefaults(child, ap as Schema);
    }
  } else if (Array.isArray(v) && s.items !== undefined) {
    for (const item of v) applyDefaults(item, s.items as Schema);
  }
}
