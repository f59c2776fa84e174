// PATCH: apply a patch to the stored object and update it (patchHandler in Go). Each retry
// after a conflict applies the patch again to the newest object.
import { newBadRequest, newInvalid, newMethodNotSupported, newNotFound } from '../../apimachinery/errors/status-error.ts';
import { forbidden } from '../../apimachinery/errors/field-errors.ts';
import type { Unstructured } from '../../apimachinery/meta/types.ts';
import { assertNever } from '../../apimachinery/watch/event.ts';
import { parse as parseYAML } from 'yaml';
import { isUpdater } from '../../registry/rest/capabilities.ts';
import { patchType } from '../negotiation.ts';
import { readBody } from '../request/body.ts';
import { attributes, validateCreate, validateUpdate } from './admission.ts';
import {
  decodeObjectText, endpointGVK, negotiateFor, parseBoolParam, parseDryRun, parseFieldValidation, toEndpointVersion, toHub,
} from './common.ts';
import { fieldManagerOf, serverSideApply, trackUpdate } from './field-manager.ts';
import { applyJSONPatch, applyMergePatch } from './patch-apply.ts';
import { applyStrategicMergePatch, interpretStrategicMergePatchError } from '../../apimachinery/patch/index.ts';
import { schemaForGVK } from '../../apimachinery/openapi/index.ts';
import type { GroupVersionKind } from '../../apimachinery/schema/group-version.ts';
import type { PatchType } from '../negotiation.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { writeObject } from './response.ts';
import type { ResourceEndpoint, ResourceHandler } from './scope.ts';

/** The patched object in the endpoint's version (JSON form), before decoding. */
function patchObject(type: PatchType, current: KubeObject | undefined, patchText: string, parsed: unknown,
  gvk: GroupVersionKind, ep: ResourceEndpoint, apply: { manager: string; force: boolean }): unknown {
  switch (type) {
    case 'json-patch': return applyJSONPatch(current, patchText);
    case 'merge-patch': return applyMergePatch(current, parsed);
    case 'strategic-merge-patch':
      try {
        return applyStrategicMergePatch(current, parsed, schemaForGVK(gvk));
      } catch (err) {
        throw interpretStrategicMergePatchError(err);
      }
    case 'apply-yaml': case 'apply-json':
      return serverSideApply(ep, current, parsed as Unstructured, apply.manager, apply.force);
    default: return assertNever(type);
  }
}

/** Parses the patch document: JSON for every type but apply-yaml (YAML, of which JSON is a subset). */
function parsePatch(type: PatchType, text: string): unknown {
  if (type === 'json-patch') return undefined;
  try {
    const v: unknown = type === 'apply-yaml' ? parseYAML(text) : JSON.parse(text);
    if (type.startsWith('apply') && (typeof v !== 'object' || v === null || Array.isArray(v))) {
      throw new Error('expected an object');
    }
    return v;
  } catch (err) {
    throw newBadRequest(`error decoding patch: ${(err as Error).message}`);
  }
}

export const handlePatch: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isUpdater(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'patch');
  const type = patchType(req.headers['content-type'], deps.strategicMergePatch === false
    ? ['json-patch', 'merge-patch', 'apply-yaml', 'apply-json']
    : ['json-patch', 'merge-patch', 'strategic-merge-patch', 'apply-yaml', 'apply-json']);
  const isApply = type === 'apply-yaml' || type === 'apply-json';
  const target = negotiateFor(ep, req.headers.accept, {});
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
  const parsed = parsePatch(type, patchText);
  const name = ctx.info.name;
  const { object, created } = await ep.storage.update(ctx, name, {
    updatedObject: async (_c, old) => {
      if (old === undefined && !isApply) throw newNotFound({ group: ep.groupVersion.group, resource: ep.resource }, name);
      const current = old === undefined ? undefined : toEndpointVersion(ep, deps, old);
      const patched = patchObject(type, current, patchText, parsed, endpointGVK(ep), ep, { manager, force: force === true });
      let obj = decodeObjectText(ep, deps, JSON.stringify(patched), 'json', state, directive);
      if (!isApply) obj = trackUpdate(ep, current, obj, manager);
      const hub = toHub(ep, deps, obj);
      await deps.admission.admit(ctx, attributes(ep, ctx, old === undefined ? 'CREATE' : 'UPDATE', name, hub, old, dryRun));
      return hub;
    },
  }, validateCreate(ep, deps, ctx, dryRun), validateUpdate(ep, deps, ctx, dryRun), isApply, { dryRun, fieldManager: manager });
  writeObject(res, created ? 201 : 200, toEndpointVersion(ep, deps, object), target, state);
};
