// Builds admission attributes for a request and the validate callbacks the registry calls
// on the final object, with what webhooks need of the request scope: the user, the operation's
// options, conversion between the versions of the kind and the resource's equivalents.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/rest.go (admission attributes),
// k8s.io/apiserver/pkg/admission (attributes.go) and runtime's EquivalentResourceRegistry.
import { isStatusError, newInternalError } from '../../apimachinery/errors/status-error.ts';
import { DecodeError } from '../../apimachinery/fieldvalidation/index.ts';
import type { DeleteOptions, KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { apiVersionOf, type GroupVersion, type GroupVersionKind, type GroupVersionResource } from '../../apimachinery/schema/group-version.ts';
import type { Attributes, ObjectInterfaces, Operation } from '../../admission/interfaces.ts';
import type { ValidateObjectFunc, ValidateObjectUpdateFunc } from '../../registry/rest/capabilities.ts';
import { canEncode, decodeProtobuf, encodeProtobuf } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
import { schemaForGVK } from '../../apimachinery/openapi/index.ts';
import { endpointGVK } from './common.ts';
import { applyJSONPatchOps } from './json-patch.ts';
import { servesTypedObjects, type HandlerDeps, type ResourceEndpoint } from './scope.ts';

/** The options of a write as kube hands them to admission (meta.k8s.io/v1 CreateOptions / UpdateOptions). */
export type WriteOptions = Readonly<Record<string, unknown>>;

/**
 * CreateOptions or UpdateOptions from the query (kube's patchToCreateOptions, updateToCreateOptions:
 * the fields both have; PatchOptions' force is not one).
 */
export function writeOptions(kind: 'CreateOptions' | 'UpdateOptions', q: URLSearchParams): WriteOptions {
  const dryRun = q.getAll('dryRun');
  const fieldManager = q.get('fieldManager') ?? '';
  const fieldValidation = q.get('fieldValidation') ?? '';
  return {
    kind, apiVersion: 'meta.k8s.io/v1',
    ...(dryRun.length > 0 ? { dryRun } : {}),
    ...(fieldManager !== '' ? { fieldManager } : {}),
    ...(fieldValidation !== '' ? { fieldValidation } : {}),
  };
}

/** The DeleteOptions a delete was given, typed as kube sets them before admission. */
export function deleteOptions(opts: DeleteOptions): WriteOptions {
  return { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...withoutTypeMeta(opts) };
}

function withoutTypeMeta(o: object): Record<string, unknown> {
  const { kind: _k, apiVersion: _a, ...rest } = o as Record<string, unknown>;
  return rest;
}

const isNamespaces = (ep: ResourceEndpoint): boolean => ep.resource === 'namespaces' && ep.groupVersion.group === '';

export function attributes(ep: ResourceEndpoint, ctx: RequestContext, op: Operation, name: string,
  object: KubeObject | undefined, oldObject: KubeObject | undefined, dryRun: boolean, deps?: HandlerDeps,
  options?: WriteOptions): Attributes {
  return {
    operation: op, kind: endpointGVK(ep), resource: { ...ep.groupVersion, resource: ep.resource },
    // A namespace's own requests name it as their namespace (createHandler does so on create).
    subresource: ep.subresource, name, namespace: ctx.namespace === '' && isNamespaces(ep) ? name : ctx.namespace, object, oldObject, dryRun,
    userInfo: ctx.user, options, interfaces: deps === undefined ? undefined : objectInterfaces(ep, deps),
  };
}

/** `name`: the name the request names (a subresource's parent), else the object's. */
export function validateCreate(ep: ResourceEndpoint, deps: HandlerDeps, ctx: RequestContext, dryRun: boolean, name?: string,
  options?: WriteOptions): ValidateObjectFunc {
  return (obj) => deps.admission.validate(ctx, attributes(ep, ctx, 'CREATE', name ?? obj.metadata.name ?? '', obj, undefined, dryRun, deps, options));
}

export function validateUpdate(ep: ResourceEndpoint, deps: HandlerDeps, ctx: RequestContext, dryRun: boolean,
  options?: WriteOptions): ValidateObjectUpdateFunc {
  return (obj, old) => deps.admission.validate(ctx, attributes(ep, ctx, 'UPDATE', obj.metadata.name ?? '', obj, old, dryRun, deps, options));
}

/**
 * rest.AdmissionToValidateObjectDeleteFunc: the stored object, as the old object, goes through
 * mutating then validating admission. `name` is the request's: '' for a deletecollection, as
 * kube's static attributes have it.
 */
export function validateDelete(ep: ResourceEndpoint, deps: HandlerDeps, ctx: RequestContext, dryRun: boolean,
  options?: DeleteOptions, name?: string): ValidateObjectFunc {
  return (obj) => {
    // Read when the object is admitted: the delete may have completed the options by then.
    const attrs = attributes(ep, ctx, 'DELETE', name ?? obj.metadata.name ?? '', undefined, obj, dryRun, deps,
      options === undefined ? undefined : deleteOptions(options));
    // No admit round (and no extra await) when no mutating plugin wants deletes.
    if (!deps.admission.mutates('DELETE')) return deps.admission.validate(ctx, attrs);
    return deps.admission.admit(ctx, attrs).then(() => deps.admission.validate(ctx, attrs));
  };
}

/** The endpoints of one handler scope (a server's deps), by equivalence key: kube's EquivalentResourceRegistry. */
interface ResourceRegistry {
  readonly byResource: Map<string, { readonly keyOf: string; readonly kind: GroupVersionKind }>;
  readonly equivalents: Map<string, GroupVersionResource[]>;
}

const registries = new WeakMap<HandlerDeps, ResourceRegistry>();
const gvrKey = (r: GroupVersionResource, sub: string): string => `${r.group}/${r.version}/${r.resource}/${sub}`;

/**
 * Records an endpoint of a handler scope. Endpoints whose objects are stored together (kube keys
 * them by storage prefix: the hub group and the resource) are equivalent.
 */
export function registerEndpoint(deps: HandlerDeps, ep: ResourceEndpoint): void {
  let reg = registries.get(deps);
  if (reg === undefined) registries.set(deps, reg = { byResource: new Map(), equivalents: new Map() });
  const gvr = { ...ep.groupVersion, resource: ep.resource };
  const eq = `${ep.hubVersion.group}/${ep.resource}/${ep.subresource}`;
  reg.byResource.set(gvrKey(gvr, ep.subresource), { keyOf: eq, kind: endpointGVK(ep) });
  const list = reg.equivalents.get(eq) ?? [];
  list.push(gvr);
  reg.equivalents.set(eq, list);
}

const interfacesCache = new WeakMap<ResourceEndpoint, ObjectInterfaces>();

/** The ObjectInterfaces of an endpoint (made once per endpoint). */
export function objectInterfaces(ep: ResourceEndpoint, deps: HandlerDeps): ObjectInterfaces {
  let oi = interfacesCache.get(ep);
  if (oi !== undefined) return oi;
  oi = {
    convert: (obj: KubeObject, gv: GroupVersion) =>
      (obj.apiVersion === apiVersionOf(gv) ? obj : deps.scheme.convertToVersion(obj, gv)),
    ...(deps.convertObject === undefined ? {} : { convertAsync: convertObjectWith(deps.convertObject) }),
    decode: (value: unknown, gvk: GroupVersionKind) => {
      try {
        const { obj } = deps.decodeBody(JSON.stringify(value), 'json', gvk, 'Ignore');
        if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error('the patched object is not a JSON object');
        const o = obj as KubeObject;
        o.apiVersion = apiVersionOf(gvk);
        o.kind = gvk.kind;
        (o as { metadata: unknown }).metadata ??= {};
        deps.scheme.default(o);
        return o;
      } catch (err) {
        // kube's json serializer returns encoding/json's bare error, which the dispatcher wraps as a 500.
        if (err instanceof DecodeError) throw newInternalError(err.detail);
        throw isStatusError(err) && err.status.code >= 500 ? err : newInternalError(isStatusError(err) ? err.status.message : err);
      }
    },
    jsonPatch: (doc: Readonly<Record<string, unknown>>, ops: readonly unknown[]) => applyJSONPatchOps(doc as Record<string, unknown>, ops, Infinity),
    goJSON: (obj: KubeObject) => {
      if (!servesTypedObjects(deps) || !canEncode(obj.apiVersion ?? '', obj.kind ?? '')) return obj;
      try {
        const fields: Record<string, unknown> = { ...obj };
        const decoded = decodeProtobuf(encodeProtobuf(fields));
        return { apiVersion: decoded.apiVersion, kind: decoded.kind, ...decoded.obj } as KubeObject;
      } catch {
        return obj;
      }
    },
    equivalentResources: (r: GroupVersionResource, sub: string) => {
      const reg = registries.get(deps);
      const eq = reg?.byResource.get(gvrKey(r, sub))?.keyOf;
      return eq === undefined ? [r] : reg?.equivalents.get(eq) ?? [r];
    },
    kindFor: (r: GroupVersionResource, sub: string) => registries.get(deps)?.byResource.get(gvrKey(r, sub))?.kind,
    schemaFor: (gvk: GroupVersionKind) => {
      const own = endpointGVK(ep);
      const same = own.group === gvk.group && own.version === gvk.version && own.kind === gvk.kind;
      return same && ep.fieldsSchema !== undefined ? ep.fieldsSchema : schemaForGVK(gvk);
    },
  };
  interfacesCache.set(ep, oi);
  return oi;
}

function convertObjectWith(convert: NonNullable<HandlerDeps['convertObject']>): (obj: KubeObject, gv: GroupVersion) => Promise<KubeObject> {
  return async (obj, gv) => (obj.apiVersion === apiVersionOf(gv) ? obj : await convert(obj, gv));
}

const CONNECT_BOOLS = ['stdin', 'stdout', 'stderr', 'tty'];

/**
 * The connect options a CONNECT request is admitted with, decoded from the query as kube's
 * parameter codec does (versioned: what webhooks receive). Proxies get the sub-path as `path`.
 */
export function connectOptions(ep: ResourceEndpoint, ctx: RequestContext, q: URLSearchParams): KubeObject {
  const o: Record<string, unknown> = {};
  switch (ep.kind) {
    case 'PodExecOptions': case 'PodAttachOptions':
      for (const b of CONNECT_BOOLS) if (['true', '1', 't', 'T', 'TRUE', 'True'].includes(q.get(b) ?? '')) o[b] = true;
      if ((q.get('container') ?? '') !== '') o['container'] = q.get('container');
      if (ep.kind === 'PodExecOptions' && q.getAll('command').length > 0) o['command'] = q.getAll('command');
      break;
    case 'PodPortForwardOptions': {
      const ports = q.getAll('ports').flatMap((p) => p.split(',')).map((p) => Number(p.trim())).filter((p) => Number.isInteger(p));
      if (ports.length > 0) o['ports'] = ports;
      break;
    }
    default: {
      // PodProxyOptions, NodeProxyOptions, ServiceProxyOptions: the path after the subresource.
      let p = ctx.info.parts.slice(3).join('/');
      if (p !== '' && !p.startsWith('/')) p = `/${p}`;
      if (ctx.info.path.endsWith('/') && !p.endsWith('/')) p += '/';
      if (p !== '') o['path'] = p;
    }
  }
  // Options kinds have no metadata: the object selector never matches them, as in kube.
  return Object.assign({ kind: ep.kind, apiVersion: apiVersionOf(ep.kindGroupVersion) } as KubeObject, o);
}

/**
 * ConnectResource's admission: mutating then validating, operation CONNECT with the connect
 * options as the object, no old object and no operation options. pods/log is a get in kube (its
 * kind is not an options kind) and is not admitted.
 */
export async function admitConnect(ep: ResourceEndpoint, deps: HandlerDeps, ctx: RequestContext, q: URLSearchParams): Promise<void> {
  if (!ep.kind.endsWith('Options') || !deps.admission.handles('CONNECT')) return;
  const opts = connectOptions(ep, ctx, q);
  await deps.admission.admit(ctx, attributes(ep, ctx, 'CONNECT', ctx.info.name, opts, undefined, false, deps));
  await deps.admission.validate(ctx, attributes(ep, ctx, 'CONNECT', ctx.info.name, opts, undefined, false, deps));
}
