// LIST (and the switch to WATCH): selectors, pagination, resourceVersion semantics.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/get.go (ListResource).
import { forbidden, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import { apiVersionOf } from '../../apimachinery/schema/group-version.ts';
import { newBadRequest, newInvalid, newMethodNotSupported, newNotAcceptableMessage } from '../../apimachinery/errors/status-error.ts';
import { isLister, type ListOptions } from '../../registry/rest/capabilities.ts';
import type { ResourceVersionMatch } from '../../storage/interfaces.ts';
import { partialObjectMetadataList, toTable, type IncludeObject } from '../table.ts';
import { parseBoolParam, parseIntParam, toListItem, negotiateFor } from './common.ts';
import { writeListPaced, writeObject } from './response.ts';
import { checkDeadline, yieldPoint } from '../../apimachinery/request/deadline.ts';
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';
import { servesTypedObjects, type HandlerDeps, type ResourceHandler } from './scope.ts';
import { goTypeName } from './go-type-name.ts';
import { unstructuredOrder } from '../../apimachinery/runtime/unstructured-order.ts';

export function parseIncludeObject(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  if (v === null || v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'None' || v === 'Object') return v;
  throw newBadRequest(`includeObject must be one of None, Metadata, Object; got "${v}"`);
}

/** Reads list options from the query and checks them as ValidateListOptions does (422 ListOptions). */
export function parseListOptions(q: URLSearchParams, watch: boolean): ListOptions {
  const rvm = q.get('resourceVersionMatch') ?? '';
  const opts: { -readonly [K in keyof ListOptions]: ListOptions[K] } = {};
  const set = <K extends keyof ListOptions>(k: K, v: ListOptions[K] | null | undefined): void => {
    if (v !== null && v !== undefined) opts[k] = v;
  };
  // In the order of the generated url.Values conversion: its first failing field names the 400.
  set('labelSelector', q.get('labelSelector'));
  set('fieldSelector', q.get('fieldSelector'));
  set('allowWatchBookmarks', parseBoolParam(q, 'allowWatchBookmarks'));
  set('resourceVersion', q.get('resourceVersion'));
  set('timeoutSeconds', parseIntParam(q, 'timeoutSeconds'));
  set('limit', parseIntParam(q, 'limit'));
  set('continue', q.get('continue'));
  set('sendInitialEvents', parseBoolParam(q, 'sendInitialEvents'));
  if (rvm !== '') set('resourceVersionMatch', rvm as ResourceVersionMatch);

  const errs: FieldError[] = [];
  if (rvm !== '' && rvm !== 'NotOlderThan' && rvm !== 'Exact') {
    errs.push({ type: 'FieldValueNotSupported', field: 'resourceVersionMatch', badValue: rvm,
      detail: 'supported values: "Exact", "NotOlderThan", ""' });
  }
  const rv = opts.resourceVersion ?? '';
  if (rvm !== '' && rv === '' && !watch) {
    errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
  }
  if (rvm === 'Exact' && rv === '0') {
    errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if ((opts.continue ?? '') !== '' && rvm !== '' && !watch) {
    errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  if (opts.sendInitialEvents !== undefined && !watch) {
    errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (opts.sendInitialEvents === true && watch && rvm !== 'NotOlderThan') {
    errs.push(forbidden('resourceVersionMatch', "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
  }
  if (watch && rvm !== '' && opts.sendInitialEvents === undefined) {
    errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
  }
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
  return opts;
}

/**
 * A custom resource list is unstructured in kube, whose metadata always carries `continue`
 * ("" on the last page); typed lists omit it when empty.
 */
export function listMetadata(deps: HandlerDeps, metadata: KubeList['metadata']): KubeList['metadata'] {
  return servesTypedObjects(deps) || metadata.continue !== undefined ? metadata : { continue: '', ...metadata };
}

/**
 * A list as kube writes it: a typed list's TypeMeta puts kind before apiVersion; a custom
 * resource's (an unstructured list) has its keys sorted.
 */
export function listBody<T>(deps: HandlerDeps, apiVersion: string, kind: string, metadata: KubeList['metadata'], items: T[]):
  { apiVersion: string; kind: string; metadata: KubeList['metadata']; items: T[] } {
  return servesTypedObjects(deps) ? { kind, apiVersion, metadata, items }
    : { apiVersion, items, kind, metadata: unstructuredOrder({ ...metadata }) as KubeList['metadata'] };
}

export const handleList: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isLister(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'list');
  const target = negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true, list: true, anyPartial: true });
  const q = state.url.searchParams;
  const ctx = state.context();
  const list = await ep.storage.list(ctx, parseListOptions(q, false));
  checkDeadline(ctx);
  switch (target.shape) {
    case 'PartialObjectMetadata':
      throw newNotAcceptableMessage(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(ep, deps, true)})`);
    case 'Table':
      writeObject(res, 200, toTable(ep.definition, list.items, list.metadata, target.apiVersion, parseIncludeObject(q)),
        target, state);
      return;
    case 'PartialObjectMetadataList':
      writeObject(res, 200, partialObjectMetadataList(list, target.apiVersion, ep.definition), target, state);
      return;
    default: {
      const apiVersion = apiVersionOf(ep.kindGroupVersion);
      await writeListPaced(res, 200, listBody(deps, apiVersion, `${ep.kind}List`, listMetadata(deps, list.metadata), list.items),
        (o) => toListItem(ep, deps, o as KubeObject), target, state, () => yieldPoint(ctx),
        `${ep.groupVersion.group}/${ep.groupVersion.version}/${ep.resource}`);
    }
  }
};
