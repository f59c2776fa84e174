// POST: create an object (createHandler in Go).
import { newBadRequest, newMethodNotSupported } from '../../apimachinery/errors/status-error.ts';
import { isCreater } from '../../registry/rest/capabilities.ts';
import { attributes, validateCreate } from './admission.ts';
import { decodeRequestObject, parseDryRun, parseFieldValidation, toEndpointVersion, toHub, negotiateFor } from './common.ts';
import { writeObject } from './response.ts';
import type { ResourceHandler } from './scope.ts';

export const handleCreate: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isCreater(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'create');
  const target = negotiateFor(ep, req.headers.accept, {});
  const q = state.url.searchParams;
  const ctx = state.context();
  const dryRun = parseDryRun(q, 'CreateOptions');
  const directive = parseFieldValidation(q, 'CreateOptions');
  if (ep.namespaced && ctx.namespace === '') throw newBadRequest('the server could not find the requested resource');
  const obj = toHub(ep, deps, await decodeRequestObject(ep, deps, req, state, directive));
  if (ep.namespaced && (obj.metadata.namespace ?? '') === '') obj.metadata.namespace = ctx.namespace;
  await deps.admission.admit(ctx, attributes(ep, ctx, 'CREATE', obj.metadata.name ?? '', obj, undefined, dryRun));
  const fieldManager = q.get('fieldManager');
  const created = await ep.storage.create(ctx, obj, validateCreate(ep, deps, ctx, dryRun),
    { dryRun, ...(fieldManager !== null ? { fieldManager } : {}) });
  writeObject(res, 201, toEndpointVersion(ep, deps, created), target, state);
};
