// PUT: replace an object (updateHandler in Go); creates it when the strategy allows.
import { newMethodNotSupported } from '../../apimachinery/errors/status-error.ts';
import { isUpdater } from '../../registry/rest/capabilities.ts';
import { attributes, validateCreate, validateUpdate } from './admission.ts';
import { decodeRequestObject, parseDryRun, parseFieldValidation, toEndpointVersion, toHub, negotiateFor } from './common.ts';
import { writeObject } from './response.ts';
import type { ResourceHandler } from './scope.ts';

export const handleUpdate: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isUpdater(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'update');
  const target = negotiateFor(ep, req.headers.accept, {});
  const q = state.url.searchParams;
  const ctx = state.context();
  const dryRun = parseDryRun(q, 'UpdateOptions');
  const directive = parseFieldValidation(q, 'UpdateOptions');
  const body = toHub(ep, deps, await decodeRequestObject(ep, deps, req, state, directive));
  const name = ctx.info.name;
  const fieldManager = q.get('fieldManager');
  const { object, created } = await ep.storage.update(ctx, name, {
    updatedObject: async (_c, old) => {
      const obj = structuredClone(body);
      await deps.admission.admit(ctx, attributes(ep, ctx, old === undefined ? 'CREATE' : 'UPDATE', name, obj, old, dryRun));
      return obj;
    },
  }, validateCreate(ep, deps, ctx, dryRun), validateUpdate(ep, deps, ctx, dryRun), false,
  { dryRun, ...(fieldManager !== null ? { fieldManager } : {}) });
  writeObject(res, created ? 201 : 200, toEndpointVersion(ep, deps, object), target, state);
};
