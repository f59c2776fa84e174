// GET of one object, as the object, a Table row or PartialObjectMetadata.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/get.go.
import { isGetter } from '../../registry/rest/capabilities.ts';
import { newMethodNotSupported, newNotAcceptableMessage } from '../../apimachinery/errors/status-error.ts';
import { partialObjectMetadata, toTable } from '../table.ts';
import { toEndpointVersion, negotiateFor } from './common.ts';
import { parseIncludeObject } from './list.ts';
import { writeItem, writeObject } from './response.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ResourceHandler } from './scope.ts';
import { goTypeName } from './go-type-name.ts';

export const handleGet: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isGetter(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'get');
  const target = negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true, anyPartial: true });
  const q = state.url.searchParams;
  const ctx = state.context();
  const rv = q.get('resourceVersion');
  // Every answer below reads the object and never changes it: a shared (watch-cached) copy will do.
  const stored = await ep.storage.get(ctx, ctx.info.name, rv !== null ? { resourceVersion: rv, shared: true } : { shared: true });
  // Table columns read the hub shape; everything else is in the endpoint's version.
  if (target.shape === 'Table') {
    writeObject(res, 200, toTable(ep.definition, [stored], { resourceVersion: stored.metadata.resourceVersion ?? '' },
      target.apiVersion, parseIncludeObject(q)), target, state);
    return;
  }
  if (target.shape === 'PartialObjectMetadataList') throw newNotAcceptableMessage(
    `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(ep, deps, false)})`);
  if (target.shape === 'PartialObjectMetadata') {
    writeObject(res, 200, partialObjectMetadata(toEndpointVersion(ep, deps, stored), target.apiVersion, ep.definition), target, state);
    return;
  }
  writeItem(res, 200, stored, (o) => toEndpointVersion(ep, deps, o as KubeObject), target, state,
    `${ep.groupVersion.group}/${ep.groupVersion.version}/${ep.resource}/get`);
};
