// Structural pruning: fields a structural schema does not declare are dropped (unless the
// schema preserves unknown fields), recursively through properties, items and
// additionalProperties; the root and embedded resources keep apiVersion, kind and metadata. Kube
// prunes what a conversion webhook returns with the target version's schema.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go.
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TYPE_META = new Set(['apiVersion', 'kind', 'metadata']);

/** Prunes `v` (a custom resource when `root`) in place against `s`. */
export function prune(v: unknown, s: Schema | undefined, root = false): void {
  if (isObject(v)) {
    const keepMeta = root || s?.['x-kubernetes-embedded-resource'] === true;
    const props = s?.properties ?? {};
    const ap = s?.additionalProperties;
    const preserve = s?.['x-kubernetes-preserve-unknown-fields'] === true || ap === true;
    for (const [k, child] of Object.entries(v)) {
      if (keepMeta && TYPE_META.has(k)) continue;
      const p = Object.hasOwn(props, k) ? props[k] : typeof ap === 'object' ? ap as Schema : undefined;
      if (p === undefined) {
        if (!preserve) delete v[k];
        continue;
      }
      prune(child, p);
    }
  } else if (Array.isArray(v)) {
    for (const item of v) prune(item, s?.items as Schema | undefined);
  }
}
