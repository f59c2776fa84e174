// DELETE of one object and of a collection, with DeleteOptions from the body or the query.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/delete.go.
import { apiVersionOf } from '../../apimachinery/schema/group-version.ts';
import { newMethodNotSupported } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, KubeObject } from '../../apimachinery/meta/types.ts';
import { isCollectionDeleter, isGracefulDeleter } from '../../registry/rest/capabilities.ts';
import { validateDelete } from './admission.ts';
import { negotiateFor } from './common.ts';
import { readDeleteOptions } from './delete-options.ts';
import { listBody, listMetadata, parseListOptions } from './list.ts';
import { writeObject } from './response.ts';
import { transformList, writeTransformed } from './transform.ts';
import type { HandlerDeps, ResourceEndpoint, ResourceHandler } from './scope.ts';

const isDryRun = (o: DeleteOptions): boolean => (o.dryRun ?? []).includes('All');

export const handleDelete: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isGracefulDeleter(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'delete');
  const target = negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true, anyPartial: true });
  const ctx = state.context();
  const opts = await readDeleteOptions(req, state);
  const warning = ep.definition.deleteWarning?.(ctx, opts);
  if (warning !== undefined) state.addWarning(warning);
  const { object, deletedImmediately } = await ep.storage.delete(ctx, ctx.info.name, validateDelete(ep, deps, ctx, isDryRun(opts), opts), opts);
  // kube answers 202 when dependents are to be deleted (orphanDependents: false) and the object is still there.
  const code = !deletedImmediately && opts.orphanDependents === false ? 202 : 200;
  writeTransformed(res, code, ep, deps, object as KubeObject, target, state);
};

export const handleDeleteCollection: ResourceHandler = async (ep: ResourceEndpoint, deps: HandlerDeps, req, res, state) => {
  if (!isCollectionDeleter(ep.storage)) {
    throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'deletecollection');
  }
  const target = negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true, anyPartial: true });
  const ctx = state.context();
  const opts = await readDeleteOptions(req, state);
  const warning = ep.definition.deleteWarning?.(ctx, opts);
  if (warning !== undefined) state.addWarning(warning);
  const listOpts = parseListOptions(state.url.searchParams, false);
  const list = await ep.storage.deleteCollection(ctx, validateDelete(ep, deps, ctx, isDryRun(opts), opts, ''), opts, listOpts);
  const apiVersion = apiVersionOf(ep.kindGroupVersion);
  writeObject(res, 200, transformList(ep, deps, list, target, state.url.searchParams,
    (items) => listBody(deps, apiVersion, `${ep.kind}List`, listMetadata(deps, list.metadata), items)), target, state);
};
