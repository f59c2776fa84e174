// Builds admission attributes for a request and the validate callbacks the registry calls
// on the final object.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/rest.go (admission attributes) and
// k8s.io/apiserver/pkg/admission (attributes.go).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation } from '../../admission/interfaces.ts';
import type { ValidateObjectFunc, ValidateObjectUpdateFunc } from '../../registry/rest/capabilities.ts';
import { endpointGVK } from './common.ts';
import type { HandlerDeps, ResourceEndpoint } from './scope.ts';

export function attributes(ep: ResourceEndpoint, ctx: RequestContext, op: Operation, name: string,
  object: KubeObject | undefined, oldObject: KubeObject | undefined, dryRun: boolean): Attributes {
  return {
    operation: op, kind: endpointGVK(ep), resource: { ...ep.groupVersion, resource: ep.resource },
    subresource: ep.subresource, name, namespace: ctx.namespace, object, oldObject, dryRun,
  };
}

/** `name`: the name the request names (a subresource's parent), else the object's. */
export function validateCreate(ep: ResourceEndpoint, deps: HandlerDeps, ctx: RequestContext, dryRun: boolean, name?: string): ValidateObjectFunc {
  return (obj) => deps.admission.validate(ctx, attributes(ep, ctx, 'CREATE', name ?? obj.metadata.name ?? '', obj, undefined, dryRun));
}

export function validateUpdate(ep: ResourceEndpoint, deps: HandlerDeps, ctx: RequestContext, dryRun: boolean): ValidateObjectUpdateFunc {
  return (obj, old) => deps.admission.validate(ctx, attributes(ep, ctx, 'UPDATE', obj.metadata.name ?? '', obj, old, dryRun));
}

export function validateDelete(ep: ResourceEndpoint, deps: HandlerDeps, ctx: RequestContext, dryRun: boolean): ValidateObjectFunc {
  return (obj) => deps.admission.validate(ctx, attributes(ep, ctx, 'DELETE', obj.metadata.name ?? '', undefined, obj, dryRun));
}
