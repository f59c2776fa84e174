// The object admission sees, shaped as kube's decoder leaves it. kube decodes a body into typed Go
// structs, so a built-in object's `spec` and `status` (value structs in every served k8s.io/api
// type) exist before mutating admission runs, and encoding/json prints them as `{}` however
// empty. Webhooks then receive `spec: {}` / `status: {}` and their JSON patches can add below
// them. The resource's other Go zero values (ResourceDefinition.goZeroValues) are there too.
// Counterpart of the typed decode in k8s.io/apiserver/pkg/endpoints/handlers (create.go,
// update.go, patch.go) before admission.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { resolveSchema, schemaForGVK } from '../../apimachinery/openapi/index.ts';
import { endpointGVK } from './common.ts';
import { servesTypedObjects, type HandlerDeps, type ResourceEndpoint } from './scope.ts';

const STRUCT_FIELDS = ['spec', 'status'] as const;
const structFields = new WeakMap<ResourceEndpoint, readonly string[]>();

/** The top-level struct fields of the endpoint's kind (from its OpenAPI definition), found once per endpoint. */
function structFieldsOf(ep: ResourceEndpoint): readonly string[] {
  let fields = structFields.get(ep);
  if (fields !== undefined) return fields;
  const props = schemaForGVK(endpointGVK(ep))?.properties ?? {};
  fields = STRUCT_FIELDS.filter((f) => {
    const p = props[f];
    return p?.$ref !== undefined && resolveSchema(p)?.type === 'object';
  });
  structFields.set(ep, fields);
  return fields;
}

/**
 * Fills a built-in object's empty top-level structs and the resource's Go zero values, in place,
 * before admission. Custom resources (unstructured in kube) are left as sent. On an update, only
 * the structs the stored object has: one stored without them (by an older kapi) must not change
 * on a no-op update.
 */
export function fillDecodedStructs(ep: ResourceEndpoint, deps: HandlerDeps, obj: KubeObject, old?: KubeObject): void {
  if (!servesTypedObjects(deps)) return;
  for (const f of structFieldsOf(ep)) {
    const v: unknown = Reflect.get(obj, f);
    if ((v === undefined || v === null) && (old === undefined || Reflect.get(old, f) !== undefined)) Reflect.set(obj, f, {});
  }
  // goZeroValues are the main resource's; a subresource of another kind (Scale, TokenRequest) has its own shape.
  if (ep.kind === ep.definition.kind) ep.definition.goZeroValues?.(obj);
  else ep.subresourceZeroValues?.(obj);
}
