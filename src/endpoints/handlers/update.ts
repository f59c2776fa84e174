// PUT: replace an object (updateHandler in Go); creates it when the strategy allows.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/update.go.
import { newMethodNotSupported } from '../../apimachinery/errors/status-error.ts';
import { yieldPoint } from '../../apimachinery/request/deadline.ts';
import { isRequestTooLarge } from '../../registry/generic/storage-errors.ts';
import { isUpdater } from '../../registry/rest/capabilities.ts';
import { checkUpdateTarget } from '../../registry/rest/object-target.ts';
import { attributes, validateCreate, validateUpdate, writeOptions } from './admission.ts';
import { decodeRequestObject, parseDryRun, parseFieldValidation, toEndpointVersion, toHub, negotiateFor } from './common.ts';
import { fieldManagerOf, trackUpdate } from './field-manager.ts';
import { fillDecodedStructs } from './go-structs.ts';
import { writeTransformed } from './transform.ts';
import type { ResourceHandler } from './scope.ts';

export const handleUpdate: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isUpdater(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'update');
  const target = negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true, anyPartial: true });
  const q = state.url.searchParams;
  const ctx = state.context();
  const dryRun = parseDryRun(q, 'UpdateOptions');
  const directive = parseFieldValidation(q, 'UpdateOptions');
  const manager = fieldManagerOf(q, req, 'UpdateOptions');
  const body = await decodeRequestObject(ep, deps, req, state, directive);
  // Decoding a large body is the long step: the deadline and other requests get their turn after it.
  await yieldPoint(ctx);
  const name = ctx.info.name;
  checkUpdateTarget(body.metadata, name, ep.namespaced ? ctx.namespace : undefined);
  // DefaultUpdatedObjectInfo.Preconditions: the body's UID, when it has one.
  const uid = body.metadata.uid;
  const updater = ep.storage;
  // updateToCreateOptions: an update that creates is admitted with CreateOptions.
  const createOptions = writeOptions('CreateOptions', q);
  const updateOptions = writeOptions('UpdateOptions', q);
  const update = (withoutManagedFields: boolean) => updater.update(ctx, name, {
    ...(uid !== undefined && uid !== '' ? { preconditions: { uid } } : {}),
    updatedObject: async (_c, old) => {
      const live = old === undefined ? undefined : toEndpointVersion(ep, deps, old);
      const obj = toHub(ep, deps, await trackUpdate(ep, deps, live, structuredClone(body), manager));
      if (withoutManagedFields) delete obj.metadata.managedFields;
      fillDecodedStructs(ep, deps, obj, old);
      await deps.admission.admit(ctx, attributes(ep, ctx, old === undefined ? 'CREATE' : 'UPDATE', name, obj, old, dryRun, deps,
        old === undefined ? createOptions : updateOptions));
      return obj;
    },
  }, validateCreate(ep, deps, ctx, dryRun, undefined, createOptions), validateUpdate(ep, deps, ctx, dryRun, updateOptions), false,
  { dryRun, fieldManager: manager });
  // As kube's update handler: an object too large for etcd is tried once more without its
  // managedFields, which can be as large as the object's field set.
  const { object, created } = await update(false).catch((err: unknown) => {
    if (!isRequestTooLarge(err)) throw err;
    return update(true);
  });
  writeTransformed(res, created ? 201 : 200, ep, deps, object, target, state);
};
