// Server-side apply's view of the versions of a CRD converting by webhook: managers recorded in
// another version are compared in theirs, the objects converted through the webhook and their
// fields typed with that version's schema.
// Counterpart of newCRDVersionConverter in k8s.io/apimachinery/pkg/util/managedfields/internal
// as k8s.io/apiextensions-apiserver's customresource_handler.go builds it.
import type { AsyncVersionConverter } from '../../apimachinery/managedfields/index.ts';
import type { SchemaNode } from '../../apimachinery/openapi/types.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import { kindSchema } from '../schema/convert.ts';
import type { CustomResourceDefinition } from '../v1/types.ts';
import type { ConvertFunc } from './converting-storage.ts';

/** `convertOf` answers the CRD's current conversion (through its webhook, pruned to the target schema). */
export function crdVersionConverter(crd: DeepReadonly<CustomResourceDefinition>, convertOf: () => ConvertFunc | undefined): AsyncVersionConverter {
  const { group, names } = crd.spec;
  const schemas = new Map<string, SchemaNode | undefined>();
  for (const v of crd.spec.versions) {
    const s = v.schema?.openAPIV3Schema;
    schemas.set(`${group}/${v.name}`, s === undefined ? undefined : kindSchema(s, { group, version: v.name, kind: names.kind }));
  }
  return {
    convert: async (obj, apiVersion) => {
      const convert = convertOf();
      if (convert === undefined) throw new Error(`${group}/${names.kind} no longer converts by webhook`);
      const [out] = await convert([obj], apiVersion);
      if (out === undefined) throw new Error('the conversion returned no object');
      return out;
    },
    // A version the CRD does not have: its managers are dropped (IsMissingVersionError).
    schemaOf: (apiVersion) => (schemas.has(apiVersion) ? schemas.get(apiVersion) : null),
  };
}
