// GET of one object, as the object, a Table row or PartialObjectMetadata.
import { isGetter } from '../../registry/rest/capabilities.ts';
import { newMethodNotSupported } from '../../apimachinery/errors/status-error.ts';
import { partialObjectMetadata, toTable } from '../table.ts';
import { toEndpointVersion, negotiateFor } from './common.ts';
import { parseIncludeObject } from './list.ts';
import { writeObject } from './response.ts';
import type { ResourceHandler } from './scope.ts';

export const handleGet: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isGetter(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'get');
  const target = negotiateFor(ep, req.headers.accept, { allowTable: true, allowPartialMetadata: true });
  const q = state.url.searchParams;
  const ctx = state.context();
  const rv = q.get('resourceVersion');
  const obj = toEndpointVersion(ep, deps,
    await ep.storage.get(ctx, ctx.info.name, rv !== null ? { resourceVersion: rv } : {}));
  switch (target.shape) {
    case 'Table':
      writeObject(res, 200, toTable(ep.definition, [obj], { resourceVersion: obj.metadata.resourceVersion ?? '' },
        target.apiVersion, parseIncludeObject(q)), target, state);
      return;
    case 'PartialObjectMetadata':
      writeObject(res, 200, partialObjectMetadata(obj, target.apiVersion), target, state);
      return;
    default:
      writeObject(res, 200, obj, target, state);
  }
};
