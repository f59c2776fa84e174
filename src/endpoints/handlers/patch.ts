// PATCH: apply a patch to the stored object and update it (patchHandler in Go). Each retry
// after a conflict applies the patch again to the newest object.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/patch.go.
import type { IncomingMessage } from 'node:http';
import { newBadRequest, newInvalid, newMethodNotSupported, newNotFound } from '../../apimachinery/errors/status-error.ts';
import { forbidden } from '../../apimachinery/errors/field-errors.ts';
import type { Unstructured } from '../../apimachinery/meta/types.ts';
import { assertNever } from '../../apimachinery/watch/event.ts';
import { isRequestTooLarge } from '../../registry/generic/storage-errors.ts';
import { isUpdater } from '../../registry/rest/capabilities.ts';
import { patchType } from '../negotiation.ts';
import { readBody } from '../request/body.ts';
import { attributes, validateCreate, validateUpdate, writeOptions } from './admission.ts';
import {
  decodeObjectText, endpointGVK, negotiateFor, parseBoolParam, parseDryRun, parseFieldValidation, toEndpointVersion, toHub,
} from './common.ts';
import { fieldManagerOf, serverSideApply, trackUpdate } from './field-manager.ts';
import { applyJSONPatch, applyMergePatch, checkMergePatchBody, checkPatchBodyDepth } from './patch-apply.ts';
import { goJSONType } from './json-patch.ts';
import { DecodeError, jsonSyntaxError } from '../../apimachinery/fieldvalidation/index.ts';
import { appliedObjectUnconvertible, patchedObjectInvalid } from './patch-errors.ts';
import { checkPatchedDepth, stringifyJSON } from '../../apimachinery/json-depth.ts';
import { checkStrictApply, decodeApplyPatch } from './apply-patch.ts';
import { applyStrategicMergePatch, interpretStrategicMergePatchError } from '../../apimachinery/patch/index.ts';
import { schemaForGVK } from '../../apimachinery/openapi/index.ts';
import type { GroupVersionKind } from '../../apimachinery/schema/group-version.ts';
import type { PatchType } from '../negotiation.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { pacer, yieldPoint } from '../../apimachinery/request/deadline.ts';
import { fillDecodedStructs } from './go-structs.ts';
import { writeTransformed } from './transform.ts';
import { isRestfulRoute, type FieldValidationDirective, type HandlerDeps, type ResourceEndpoint, type ResourceHandler } from './scope.ts';

/** The patched object in the endpoint's version (JSON form), before decoding. */
async function patchObject(type: PatchType, current: KubeObject | undefined, patchText: string, parsed: unknown,
  gvk: GroupVersionKind, ep: ResourceEndpoint, apply: { manager: string; force: boolean }, directive: FieldValidationDirective,
  ctx: RequestContext): Promise<unknown> {
  switch (type) {
    case 'json-patch': return applyJSONPatch(current, patchText, directive, pacer(ctx));
    case 'merge-patch':
      checkMergePatchBody(patchText, directive);
      return applyMergePatch(current, patchText);
    case 'strategic-merge-patch':
      checkPatchBodyDepth('strategic-merge-patch', patchText);
      try {
        return applyStrategicMergePatch(current, parseStrategicPatch(patchText), schemaForGVK(gvk));
      } catch (err) {
        throw interpretStrategicMergePatchError(err);
      }
    case 'apply-yaml':
      return await serverSideApply(ep, current, parsed as Unstructured, apply.manager, apply.force);
    default: return assertNever(type);
  }
}

/**
 * A strategic merge patch is decoded into a map (strategicPatchObject): malformed JSON or a
 * body that is not an object is a 400 with encoding/json's bare text.
 */
function parseStrategicPatch(text: string): unknown {
  const syntax = jsonSyntaxError(text);
  if (syntax !== undefined) throw newBadRequest(syntax);
  const v: unknown = JSON.parse(text);
  if (v !== null && (typeof v !== 'object' || Array.isArray(v))) {
    throw newBadRequest(`json: cannot unmarshal ${goJSONType(v)} into Go value of type map[string]interface {}`);
  }
  return v ?? {};
}

/** The request's patch type; rejects with 415 (go-restful's text for built-in resources). */
export function requestPatchType(deps: HandlerDeps, req: IncomingMessage): PatchType {
  const supported: readonly PatchType[] = deps.strategicMergePatch === false
    ? ['json-patch', 'merge-patch', 'apply-yaml']
    : ['json-patch', 'merge-patch', 'strategic-merge-patch', 'apply-yaml'];
  return patchType(req.headers['content-type'], supported,
    isRestfulRoute(deps) ? { contentLength: Number(req.headers['content-length'] ?? 0) || 0 } : undefined);
}

export const handlePatch: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isUpdater(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'patch');
  const type = requestPatchType(deps, req);
  const isApply = type === 'apply-yaml';
  const target = negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true, anyPartial: true });
  const q = state.url.searchParams;
  const ctx = state.context();
  const dryRun = parseDryRun(q, 'PatchOptions');
  const directive = parseFieldValidation(q, 'PatchOptions');
  const force = parseBoolParam(q, 'force');
  if (force !== undefined && !isApply) {
    throw newInvalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [forbidden('force', 'may not be specified for non-apply patch')]);
  }
  const manager = fieldManagerOf(q, req, 'PatchOptions', isApply);
  const patchText = (await readBody(req)).toString('utf8');
  if (state.audit?.wantsRequestObject === true) state.audit.logRequestPatch(auditPatchBody(patchText));
  const applyBody = isApply ? decodeApplyPatch(patchText, directive) : undefined;
  // Other patch bodies are decoded when applied, after the object was read (a 404 comes first).
  const parsed = applyBody?.object;
  const name = ctx.info.name;
  const updater = ep.storage;
  // patchToCreateOptions / patchToUpdateOptions: admission sees the options of the operation it admits.
  const createOptions = writeOptions('CreateOptions', q);
  const updateOptions = writeOptions('UpdateOptions', q);
  const update = (withoutManagedFields: boolean) => updater.update(ctx, name, {
    updatedObject: async (_c, old) => {
      if (old === undefined && !isApply) throw newNotFound({ group: ep.groupVersion.group, resource: ep.resource }, name);
      const current = old === undefined ? undefined : toEndpointVersion(ep, deps, old);
      const patched = await patchObject(type, current, patchText, parsed, endpointGVK(ep), ep, { manager, force: force === true }, directive, ctx);
      // Applying a patch (and below, decoding its result) can take long on large objects: let the
      // deadline and other requests have their turn between the steps.
      await yieldPoint(ctx);
      // kube checks the apply body strictly only once the apply itself succeeded.
      if (applyBody !== undefined) checkStrictApply(applyBody, directive, (w) => state.addWarning(w));
      // A patch can deepen the object (JSON patch add/copy/move, merge patch): 422 beyond the limit.
      checkPatchedDepth(patched);
      let obj: KubeObject;
      try {
        obj = decodeObjectText(ep, deps, stringifyJSON(patched), 'json', state, directive);
      } catch (err) {
        if (!(err instanceof DecodeError)) throw err;
        if (type === 'apply-yaml') throw appliedObjectUnconvertible(err, parsed, patched, endpointGVK(ep));
        throw patchedObjectInvalid(type, err, patchText, current, patched, endpointGVK(ep));
      }
      if (!isApply) obj = await trackUpdate(ep, deps, current, obj, manager);
      if (withoutManagedFields) delete obj.metadata.managedFields;
      const hub = toHub(ep, deps, obj);
      fillDecodedStructs(ep, deps, hub, old);
      await deps.admission.admit(ctx, attributes(ep, ctx, old === undefined ? 'CREATE' : 'UPDATE', name, hub, old, dryRun, deps,
        old === undefined ? createOptions : updateOptions));
      return hub;
    },
  }, validateCreate(ep, deps, ctx, dryRun, undefined, createOptions), validateUpdate(ep, deps, ctx, dryRun, updateOptions), isApply, { dryRun, fieldManager: manager });
  // As kube's patch handler: a result too large for etcd is tried once more without its
  // managedFields, except for server-side apply, whose managedFields are its point.
  const { object, created } = await update(false).catch((err: unknown) => {
    if (isApply || !isRequestTooLarge(err)) throw err;
    return update(true);
  });
  writeTransformed(res, created ? 201 : 200, ep, deps, object, target, state);
};

/** The patch as the audit event keeps it: its JSON (YAML apply patches and unparsable bodies as text). */
function auditPatchBody(text: string): unknown {
  try { return JSON.parse(text) as unknown; } catch { return text; }
}
