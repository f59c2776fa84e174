// POST: create an object (createHandler in Go).
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/create.go.
import { newBadRequest, newMethodNotSupported } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { yieldPoint } from '../../apimachinery/request/deadline.ts';
import { isRequestTooLarge } from '../../registry/generic/storage-errors.ts';
import { isCreater } from '../../registry/rest/capabilities.ts';
import { attributes, validateCreate, writeOptions } from './admission.ts';
import { decodeRequestObject, parseDryRun, parseFieldValidation, toHub, negotiateFor } from './common.ts';
import { fieldManagerOf, trackUpdate } from './field-manager.ts';
import { fillDecodedStructs } from './go-structs.ts';
import { writeTransformed } from './transform.ts';
import type { ResourceHandler } from './scope.ts';

export const handleCreate: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isCreater(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'create');
  const target = negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true, anyPartial: true });
  const q = state.url.searchParams;
  const ctx = state.context();
  const dryRun = parseDryRun(q, 'CreateOptions');
  const directive = parseFieldValidation(q, 'CreateOptions');
  if (ep.namespaced && ctx.namespace === '') throw newBadRequest('the server could not find the requested resource');
  const manager = fieldManagerOf(q, req, 'CreateOptions');
  const decoded = await decodeRequestObject(ep, deps, req, state, directive);
  // Decoding a large body is the long step: the deadline and other requests get their turn after it.
  await yieldPoint(ctx);
  if (ep.namespaced && (decoded.metadata.namespace ?? '') === '') decoded.metadata.namespace = ctx.namespace;
  const obj = toHub(ep, deps, await trackUpdate(ep, deps, undefined, decoded, manager));
  // A create on a named subresource (serviceaccounts/x/token) is admitted under the URL's name.
  const urlName = ctx.info.name === '' ? undefined : ctx.info.name;
  const options = writeOptions('CreateOptions', q);
  fillDecodedStructs(ep, deps, obj);
  await deps.admission.admit(ctx, attributes(ep, ctx, 'CREATE', urlName ?? obj.metadata.name ?? '', obj, undefined, dryRun, deps, options));
  const creater = ep.storage;
  const create = (): Promise<KubeObject> => creater.create(ctx, obj, validateCreate(ep, deps, ctx, dryRun, urlName, options), { dryRun, fieldManager: manager });
  let created: KubeObject;
  try {
    created = await create();
  } catch (err) {
    // As kube's create handler: an object too large for etcd is tried once more without its
    // managedFields, which can be as large as the object's field set.
    if (!isRequestTooLarge(err) || obj.metadata.managedFields === undefined) throw err;
    delete obj.metadata.managedFields;
    created = await create();
  }
  writeTransformed(res, 201, ep, deps, created, target, state);
};
