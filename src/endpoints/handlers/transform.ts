// What every resource handler does with its result before encoding it (kube's
// transformResponseObject): a Status goes as it is; otherwise the negotiated shape decides: the
// object in the endpoint's version, a Table, PartialObjectMetadata or PartialObjectMetadataList.
// Writes (create, update, patch, delete, deletecollection) answer in these shapes as reads do;
// a shape that does not fit the result (one object's metadata for a list, or the reverse) is a
// 406 naming the result's Go type, as kube's is.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/response.go (doTransformObject).
import type { ServerResponse } from 'node:http';
import { newNotAcceptableMessage } from '../../apimachinery/errors/status-error.ts';
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestState } from '../request/state.ts';
import type { Target } from '../negotiation.ts';
import { partialObjectMetadata, partialObjectMetadataList, toTable } from '../table.ts';
import { inGoOrder, toEndpointVersion, toListItems } from './common.ts';
import { parseIncludeObject } from './list.ts';
import { writeObject } from './response.ts';
import { goTypeName } from './go-type-name.ts';
import type { HandlerDeps, ResourceEndpoint } from './scope.ts';

/** The body of a one-object result (kapi's hub object, or a Status) in the negotiated shape. */
export function transformObject(ep: ResourceEndpoint, deps: HandlerDeps, obj: KubeObject, target: Target, q: URLSearchParams): unknown {
  if (obj.kind === 'Status') return obj;
  switch (target.shape) {
    case 'Table':
    {
      // A dry-run create has no resourceVersion yet: the Table's is then omitted (omitempty).
      const rv = obj.metadata.resourceVersion ?? '';
      return toTable(ep.definition, [obj], rv === '' ? {} : { resourceVersion: rv }, target.apiVersion, parseIncludeObject(q));
    }
    case 'PartialObjectMetadata':
      return partialObjectMetadata(toEndpointVersion(ep, deps, obj), target.apiVersion, ep.definition);
    case 'PartialObjectMetadataList':
      throw newNotAcceptableMessage(
        `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(ep, deps, false)})`);
    default: {
      // A write's result is a fresh object (decoded from storage, or made by the handler: reviews).
      const out = toEndpointVersion(ep, deps, obj);
      return Object.isFrozen(out) ? out : inGoOrder(out, deps);
    }
  }
}

/** The body of a list result (hub items) in the negotiated shape; `plain` builds the list itself. */
export function transformList(ep: ResourceEndpoint, deps: HandlerDeps, list: KubeList, target: Target, q: URLSearchParams,
  plain: (items: KubeObject[]) => KubeList): unknown {
  switch (target.shape) {
    case 'Table':
      return toTable(ep.definition, list.items, list.metadata, target.apiVersion, parseIncludeObject(q));
    case 'PartialObjectMetadataList':
      return partialObjectMetadataList(list, target.apiVersion, ep.definition);
    case 'PartialObjectMetadata':
      throw newNotAcceptableMessage(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(ep, deps, true)})`);
    default:
      return plain(toListItems(ep, deps, list.items));
  }
}

/** Writes a one-object result of a write (create, update, patch, delete). */
export function writeTransformed(res: ServerResponse, code: number, ep: ResourceEndpoint, deps: HandlerDeps, obj: KubeObject,
  target: Target, state: RequestState): void {
  writeObject(res, code, transformObject(ep, deps, obj, target, state.url.searchParams), target, state);
}
