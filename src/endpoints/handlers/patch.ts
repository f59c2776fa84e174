// PATCH: apply a patch to the stored object and update it (patchHandler in Go). Each retry
// after a conflict applies the patch again to the newest object.
import { newBadRequest, newMethodNotSupported, newNotFound } from '../../apimachinery/errors/status-error.ts';
import { isUpdater } from '../../registry/rest/capabilities.ts';
import { patchType } from '../negotiation.ts';
import { readBody } from '../request/body.ts';
import { attributes, validateCreate, validateUpdate } from './admission.ts';
import { decodeObjectText, endpointGVK, parseDryRun, parseFieldValidation, toEndpointVersion, toHub, negotiateFor } from './common.ts';
import { applyJSONPatch, applyMergePatch } from './patch-apply.ts';
import { applyStrategicMergePatch, interpretStrategicMergePatchError } from '../../apimachinery/patch/index.ts';
import { schemaForGVK } from '../../apimachinery/openapi/index.ts';
import type { GroupVersionKind } from '../../apimachinery/schema/group-version.ts';
import type { PatchType } from '../negotiation.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { writeObject } from './response.ts';
import type { ResourceHandler } from './scope.ts';

function applyPatch(type: PatchType, current: KubeObject, patchText: string, parsed: unknown, gvk: GroupVersionKind): unknown {
  switch (type) {
    case 'json-patch': return applyJSONPatch(current, patchText);
    case 'merge-patch': return applyMergePatch(current, parsed);
    case 'strategic-merge-patch':
      try {
        return applyStrategicMergePatch(current, parsed, schemaForGVK(gvk));
      } catch (err) {
        throw interpretStrategicMergePatchError(err);
      }
    default: throw new Error(`patch type ${type} is not served here`);
  }
}

export const handlePatch: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isUpdater(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'patch');
  const type = patchType(req.headers['content-type'], ['json-patch', 'merge-patch', 'strategic-merge-patch']);
  const target = negotiateFor(ep, req.headers.accept, {});
  const q = state.url.searchParams;
  const ctx = state.context();
  const dryRun = parseDryRun(q, 'PatchOptions');
  const directive = parseFieldValidation(q, 'PatchOptions');
  const patchText = (await readBody(req)).toString('utf8');
  let mergePatch: unknown;
  if (type === 'merge-patch' || type === 'strategic-merge-patch') {
    try {
      mergePatch = JSON.parse(patchText);
    } catch (err) {
      throw newBadRequest(`error decoding patch: ${(err as Error).message}`);
    }
  }
  const name = ctx.info.name;
  const fieldManager = q.get('fieldManager');
  const { object } = await ep.storage.update(ctx, name, {
    updatedObject: async (_c, old) => {
      if (old === undefined) throw newNotFound({ group: ep.groupVersion.group, resource: ep.resource }, name);
      const current = toEndpointVersion(ep, deps, old);
      const patched = applyPatch(type, current, patchText, mergePatch, endpointGVK(ep));
      const obj = toHub(ep, deps, decodeObjectText(ep, deps, JSON.stringify(patched), 'json', state, directive));
      await deps.admission.admit(ctx, attributes(ep, ctx, 'UPDATE', name, obj, old, dryRun));
      return obj;
    },
  }, validateCreate(ep, deps, ctx, dryRun), validateUpdate(ep, deps, ctx, dryRun), false,
  { dryRun, ...(fieldManager !== null ? { fieldManager } : {}) });
  writeObject(res, 200, toEndpointVersion(ep, deps, object), target, state);
};
