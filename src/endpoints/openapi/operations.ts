// The REST operations of served resources in a format-neutral form (paths, methods, operation
// ids, parameters, bodies, responses), named the way kube-apiserver's installer names them:
// operationId = verb + Group + Version + [Collection] + [Namespaced] + Kind + [Subresource] + suffix,
// e.g. listCoreV1NamespacedConfigMap, deleteAppsV1CollectionNamespacedDeployment,
// readAppsV1NamespacedDeploymentScale, watchCoreV1ConfigMapListForAllNamespaces.
// Counterpart of k8s.io/apiserver/pkg/endpoints/installer.go (route documentation) and
// k8s.io/kube-openapi/pkg/builder.
import { definitionForGVK } from '../../apimachinery/openapi/definitions.ts';
import type { ServedResource } from './served.ts';

export type ParamType = 'string' | 'boolean' | 'integer';
export interface ParamSpec { readonly name: string; readonly in: 'query' | 'path'; readonly type: ParamType; readonly required?: boolean }
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
export interface GVKRef { readonly group: string; readonly version: string; readonly kind: string }

export interface OperationSpec {
  readonly method: HttpMethod;
  /** The operation's summary, where kapi publishes kube's (the non-resource paths). */
  readonly description?: string;
  readonly operationId: string;
  readonly action: string;
  readonly gvk: GVKRef;
  readonly tag: string;
  readonly params: readonly ParamSpec[];
  readonly body?: { readonly definition: string; readonly required: boolean };
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  /** code → definition name, or 'string' for a plain string body. */
  readonly responses: ReadonlyArray<{ readonly code: string; readonly schema: string | undefined }>;
}

export interface PathSpec {
  readonly path: string;
  readonly params: readonly ParamSpec[];
  readonly operations: readonly OperationSpec[];
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const STATUS_DEF = `${META}Status`;
const DELETE_OPTIONS_DEF = `${META}DeleteOptions`;
const PATCH_DEF = `${META}Patch`;
const WATCH_EVENT_DEF = `${META}WatchEvent`;

export const OBJECT_MEDIA = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/cbor'];
const WATCH_MEDIA = [...OBJECT_MEDIA, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch',
  'application/cbor-seq'];
const PATCH_MEDIA = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json',
  'application/apply-patch+yaml', 'application/apply-patch+cbor'];

const q = (name: string, type: ParamType = 'string'): ParamSpec => ({ name, in: 'query', type });
const PRETTY = q('pretty');
const NAME: ParamSpec = { name: 'name', in: 'path', type: 'string', required: true };
const NAMESPACE: ParamSpec = { name: 'namespace', in: 'path', type: 'string', required: true };
const LIST_PARAMS = [q('allowWatchBookmarks', 'boolean'), q('continue'), q('fieldSelector'), q('labelSelector'), q('limit', 'integer'),
  q('resourceVersion'), q('resourceVersionMatch'), q('sendInitialEvents', 'boolean'), q('shardSelector'), q('timeoutSeconds', 'integer'),
  q('watch', 'boolean')];
const WRITE_PARAMS = [q('dryRun'), q('fieldManager'), q('fieldValidation')];
const DELETE_PARAMS = [q('dryRun'), q('gracePeriodSeconds', 'integer'), q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'),
  q('orphanDependents', 'boolean'), q('propagationPolicy')];
const DELETE_COLLECTION_PARAMS = [q('continue'), q('dryRun'), q('fieldSelector'), q('gracePeriodSeconds', 'integer'),
  q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'), q('labelSelector'), q('limit', 'integer'),
  q('orphanDependents', 'boolean'), q('propagationPolicy'), q('resourceVersion'), q('resourceVersionMatch'),
  q('sendInitialEvents', 'boolean'), q('shardSelector'), q('timeoutSeconds', 'integer')];

// Query parameters of the subresources whose options are not a body (pods/log and the connecters).
const SUBRESOURCE_PARAMS: Readonly<Record<string, readonly ParamSpec[]>> = {
  log: [q('container'), q('follow', 'boolean'), q('insecureSkipTLSVerifyBackend', 'boolean'), q('limitBytes', 'integer'),
    q('previous', 'boolean'), q('sinceSeconds', 'integer'), q('stream'), q('tailLines', 'integer'), q('timestamps', 'boolean')],
  exec: [q('command'), q('container'), q('stderr', 'boolean'), q('stdin', 'boolean'), q('stdout', 'boolean'), q('tty', 'boolean')],
  attach: [q('container'), q('stderr', 'boolean'), q('stdin', 'boolean'), q('stdout', 'boolean'), q('tty', 'boolean')],
  portforward: [q('ports', 'integer')],
  proxy: [q('path')],
};

/** endpoints/openapi ToValidOperationID: drops non-alphanumerics, capitalizing what follows them. */
export function toValidOperationID(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let cap = capitalizeFirst;
  for (const ch of s) {
    if (/[\p{L}\p{N}]/u.test(ch)) {
      out += cap ? ch.toUpperCase() : ch;
      cap = false;
    } else {
      cap = true;
    }
  }
  return out;
}

function groupWord(group: string): string {
  return group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
}

/** "CoreV1", "AppsV1", "RbacAuthorizationV1": the group-version part of operation ids. */
export function operationGroupVersion(group: string, version: string): string {
  return toValidOperationID(groupWord(group), true) + toValidOperationID(version, true);
}

/** "core_v1", "rbacAuthorization_v1": the tag of a group version's operations. */
export function operationTag(group: string, version: string): string {
  return `${toValidOperationID(groupWord(group), false)}_${toValidOperationID(version, false)}`;
}

const capitalize = (s: string): string => (s === '' ? s : s[0]?.toUpperCase() + s.slice(1));

/** The definition describing a served resource's kind (its own, or the built-in one). */
function resourceDefinition(r: ServedResource): string | undefined {
  return r.definition ?? definitionForGVK({ group: r.group, version: r.version, kind: r.kind });
}

/** endpoints.GetArticleForNoun: " a " or " an ", and a bare space for a plural noun. */
function article(noun: string): string {
  if (noun.endsWith('s') && !noun.endsWith('ss')) return ' ';
  return /^[aeiou]/i.test(noun) ? ' an ' : ' a ';
}

/** apiextensions-apiserver's descriptionFor: a custom resource operation's text, by x-kubernetes-action. */
function customResourceDescription(kind: string, action: string, sub: string): string | undefined {
  const of = sub === '' ? '' : ` ${sub} of`;
  switch (action) {
    case 'list': return `list${of} objects of kind ${kind}`;
    case 'post': return `create${of}${article(kind)}${kind}`;
    case 'deletecollection': return `delete collection of${sub === '' ? '' : `${of} a`} ${kind}`;
    case 'get': return `read${of} the specified ${kind}`;
    case 'put': return `replace${of} the specified ${kind}`;
    case 'patch': return `partially update${of} the specified ${kind}`;
    case 'delete': return `delete${of}${article(kind)}${kind}`;
    default: return undefined;
  }
}

/** The paths and operations of one served resource and its subresources. */
export function resourcePaths(r: ServedResource): PathSpec[] {
  const def = resourceDefinition(r);
  if (def === undefined) return [];
  const listDef = r.listDefinition ?? `${def}List`;
  const gvk: GVKRef = { group: r.group, version: r.version, kind: r.kind };
  const gvPart = operationGroupVersion(r.group, r.version);
  const tag = operationTag(r.group, r.version);
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const ns = r.namespaced ? '/namespaces/{namespace}' : '';
  const scoped = r.namespaced ? `Namespaced${r.kind}` : r.kind;
  const scopeParams = r.namespaced ? [NAMESPACE] : [];
  const has = (v: string): boolean => r.verbs.includes(v);
  const crText = (action: string, sub = ''): Partial<OperationSpec> => {
    const d = r.customResource === true ? customResourceDescription(r.kind, action, sub) : undefined;
    return d === undefined ? {} : { description: d };
  };
  const op = (method: HttpMethod, verb: string, rest: string, action: string, extra: Partial<OperationSpec>): OperationSpec => ({
    method, operationId: `${verb}${gvPart}${rest}`, action, gvk, tag, params: [], consumes: ['*/*'], produces: OBJECT_MEDIA,
    responses: [], ...crText(action), ...extra,
  });
  const ok = (schema: string | undefined, ...codes: string[]): OperationSpec['responses'] =>
    [...codes.map((code) => ({ code, schema })), { code: '401', schema: undefined }];
  const patchMedia = r.strategicMergePatch === false ? PATCH_MEDIA.filter((m) => !m.startsWith('application/strategic')) : PATCH_MEDIA;
  const paths: PathSpec[] = [];

  const collection: OperationSpec[] = [];
  if (has('list')) collection.push(op('get', 'list', scoped, 'list', { params: LIST_PARAMS, produces: WATCH_MEDIA, responses: ok(listDef, '200') }));
  if (has('create')) {
    collection.push(op('post', 'create', scoped, 'post', {
      params: WRITE_PARAMS, body: { definition: def, required: true }, responses: ok(def, '200', '201', '202'),
    }));
  }
  if (has('deletecollection')) {
    collection.push(op('delete', 'delete', `Collection${scoped}`, 'deletecollection', {
      params: DELETE_COLLECTION_PARAMS, body: { definition: DELETE_OPTIONS_DEF, required: false }, responses: ok(STATUS_DEF, '200'),
    }));
  }
  if (collection.length > 0) paths.push({ path: `${prefix}${ns}/${r.resource}`, params: [...scopeParams, PRETTY], operations: collection });

  const item: OperationSpec[] = [];
  if (has('get')) item.push(op('get', 'read', scoped, 'get', { responses: ok(def, '200') }));
  if (has('update')) {
    item.push(op('put', 'replace', scoped, 'put', { params: WRITE_PARAMS, body: { definition: def, required: true }, responses: ok(def, '200', '201') }));
  }
  if (has('patch')) {
    item.push(op('patch', 'patch', scoped, 'patch', {
      params: [...WRITE_PARAMS, q('force', 'boolean')], body: { definition: PATCH_DEF, required: true }, consumes: patchMedia,
      responses: ok(def, '200', '201'),
    }));
  }
  if (has('delete')) {
    const d = r.deleteReturnsObject === true ? def : STATUS_DEF;
    item.push(op('delete', 'delete', scoped, 'delete', {
      params: DELETE_PARAMS, body: { definition: DELETE_OPTIONS_DEF, required: false }, responses: ok(d, '200', '202'),
    }));
  }
  if (item.length > 0) paths.push({ path: `${prefix}${ns}/${r.resource}/{name}`, params: [NAME, ...scopeParams, PRETTY], operations: item });

  // apiextensions-apiserver's OpenAPI builder routes no watch paths for custom resources.
  if (has('watch') && r.customResource !== true) {
    const watchParams = [...LIST_PARAMS.filter((p) => p.name !== 'watch'), q('watch', 'boolean')];
    const w = (rest: string, action: string): OperationSpec =>
      op('get', 'watch', rest, action, { produces: WATCH_MEDIA, responses: ok(WATCH_EVENT_DEF, '200') });
    paths.push({ path: `${prefix}/watch${ns}/${r.resource}`, params: [...scopeParams, PRETTY, ...watchParams],
      operations: [w(`${scoped}List`, 'watchlist')] });
    paths.push({ path: `${prefix}/watch${ns}/${r.resource}/{name}`, params: [NAME, ...scopeParams, PRETTY, ...watchParams],
      operations: [w(scoped, 'watch')] });
    if (r.namespaced) {
      paths.push({ path: `${prefix}/watch/${r.resource}`, params: [PRETTY, ...watchParams],
        operations: [w(`${r.kind}ListForAllNamespaces`, 'watchlist')] });
    }
  }
  if (r.namespaced && has('list')) {
    paths.push({ path: `${prefix}/${r.resource}`, params: [PRETTY, ...LIST_PARAMS],
      operations: [op('get', 'list', `${r.kind}ForAllNamespaces`, 'list', { produces: WATCH_MEDIA, responses: ok(listDef, '200') })] });
  }

  for (const sub of r.subresources ?? []) {
    const subGVK: GVKRef = { group: sub.group ?? r.group, version: sub.version ?? r.version, kind: sub.kind };
    // A subresource of the resource's own kind (status) shares its definition, also for custom resources.
    const ownKind = sub.kind === r.kind && subGVK.group === r.group && subGVK.version === r.version;
    const subDef = ownKind ? def : definitionForGVK(subGVK);
    const rest = `${scoped}${capitalize(sub.name)}`;
    const sop = (method: HttpMethod, verb: string, action: string, extra: Partial<OperationSpec>): OperationSpec =>
      ({ ...op(method, verb, rest, action, extra), ...crText(action, sub.name), gvk: subGVK });
    const ops: OperationSpec[] = [];
    const sv = (v: string): boolean => sub.verbs.includes(v);
    const isLog = sub.name === 'log';
    if (sv('get')) {
      ops.push(sop('get', 'read', 'get', isLog
        ? { produces: ['text/plain', ...OBJECT_MEDIA], responses: ok('string', '200') }
        : { responses: ok(subDef ?? 'string', '200') }));
    }
    if (sv('update') && subDef !== undefined) {
      ops.push(sop('put', 'replace', 'put', { params: WRITE_PARAMS, body: { definition: subDef, required: true }, responses: ok(subDef, '200', '201') }));
    }
    if (sv('patch') && subDef !== undefined) {
      ops.push(sop('patch', 'patch', 'patch', {
        params: [...WRITE_PARAMS, q('force', 'boolean')], body: { definition: PATCH_DEF, required: true }, consumes: patchMedia,
        responses: ok(subDef, '200', '201'),
      }));
    }
    if (sv('create') && subDef !== undefined) {
      ops.push(sop('post', 'create', 'post', { params: WRITE_PARAMS, body: { definition: subDef, required: true }, responses: ok(subDef, '200', '201', '202') }));
    }
    if (sv('connect')) {
      for (const m of sub.connectMethods ?? ['GET', 'POST']) {
        const method = m.toLowerCase() as HttpMethod;
        ops.push({ ...op(method, 'connect', `${capitalize(method)}${rest}`, 'connect', { produces: ['*/*'], responses: ok('string', '200') }), gvk: subGVK });
      }
    }
    if (ops.length > 0) {
      const extra = SUBRESOURCE_PARAMS[sub.name] ?? [];
      // Connecters take no "pretty": their answer is a stream, not an object.
      const common = sv('connect') ? [NAME, ...scopeParams, ...extra] : [NAME, ...scopeParams, PRETTY, ...extra];
      paths.push({ path: `${prefix}${ns}/${r.resource}/{name}/${sub.name}`, params: common, operations: ops });
    }
  }
  return paths;
}
