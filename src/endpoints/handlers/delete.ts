// DELETE of one object and of a collection, with DeleteOptions from the body or the query.
import { apiVersionOf } from '../../apimachinery/schema/group-version.ts';
import { newBadRequest, newMethodNotSupported } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, DeletionPropagation } from '../../apimachinery/meta/types.ts';
import { isCollectionDeleter, isGracefulDeleter } from '../../registry/rest/capabilities.ts';
import { readBody } from '../request/body.ts';
import { parseYAMLOrJSON } from './patch-apply.ts';
import { validateDelete } from './admission.ts';
import { parseDryRun, parseIntParam, toEndpointVersion, negotiateFor } from './common.ts';
import { parseListOptions } from './list.ts';
import { writeObject } from './response.ts';
import type { HandlerDeps, ResourceEndpoint, ResourceHandler } from './scope.ts';
import type { IncomingMessage } from 'node:http';
import type { RequestState } from '../request/state.ts';

const POLICIES: readonly string[] = ['Orphan', 'Background', 'Foreground'];

async function deleteOptions(req: IncomingMessage, state: RequestState): Promise<DeleteOptions> {
  const q = state.url.searchParams;
  const raw = (await readBody(req)).toString('utf8').trim();
  let opts: DeleteOptions = {};
  if (raw !== '') {
    const parsed = parseYAMLOrJSON(raw, req.headers['content-type']);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw newBadRequest('DeleteOptions must be an object');
    opts = parsed as DeleteOptions;
  }
  const grace = parseIntParam(q, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const policy = q.get('propagationPolicy');
  if (policy !== null && policy !== '') opts.propagationPolicy = policy as DeletionPropagation;
  const orphan = q.get('orphanDependents');
  if (orphan !== null && orphan !== '') opts.orphanDependents = orphan === 'true';
  if (parseDryRun(q, 'DeleteOptions')) opts.dryRun = ['All'];
  if (opts.propagationPolicy !== undefined && !POLICIES.includes(opts.propagationPolicy)) {
    throw newBadRequest(`propagationPolicy: Unsupported value: "${opts.propagationPolicy}": supported values: "Foreground", "Background", "Orphan"`);
  }
  if (opts.propagationPolicy !== undefined && opts.orphanDependents !== undefined) {
    throw newBadRequest('propagationPolicy: Invalid value: "": orphanDependents and deletionPropagation cannot be both set');
  }
  return opts;
}

const isDryRun = (o: DeleteOptions): boolean => (o.dryRun ?? []).includes('All');

export const handleDelete: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isGracefulDeleter(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'delete');
  const target = negotiateFor(ep, req.headers.accept, {});
  const ctx = state.context();
  const opts = await deleteOptions(req, state);
  const { object } = await ep.storage.delete(ctx, ctx.info.name, validateDelete(ep, deps, ctx, isDryRun(opts)), opts);
  writeObject(res, 200, object.kind === 'Status' ? object : toEndpointVersion(ep, deps, object as never), target, state);
};

export const handleDeleteCollection: ResourceHandler = async (ep: ResourceEndpoint, deps: HandlerDeps, req, res, state) => {
  if (!isCollectionDeleter(ep.storage)) {
    throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'deletecollection');
  }
  const target = negotiateFor(ep, req.headers.accept, {});
  const ctx = state.context();
  const opts = await deleteOptions(req, state);
  const listOpts = parseListOptions(state.url.searchParams, false);
  const list = await ep.storage.deleteCollection(ctx, validateDelete(ep, deps, ctx, isDryRun(opts)), opts, listOpts);
  const items = list.items.map((o) => toEndpointVersion(ep, deps, o));
  const apiVersion = apiVersionOf(ep.kindGroupVersion);
  writeObject(res, 200, { apiVersion, kind: `${ep.kind}List`, metadata: list.metadata, items }, target, state);
};
