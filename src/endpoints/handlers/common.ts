// Steps shared by the verb handlers: decoding bodies into objects of the endpoint's kind,
// reading write options from the query, and converting results for the response.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/rest.go.
import type { IncomingMessage } from 'node:http';
import { newBadRequest, newInvalid } from '../../apimachinery/errors/status-error.ts';
import { notSupported } from '../../apimachinery/errors/field-errors.ts';
import { isKubeObject, type KubeObject } from '../../apimachinery/meta/types.ts';
import { apiVersionOf, parseGroupVersion, type GroupVersionKind } from '../../apimachinery/schema/group-version.ts';
import { DecodeError, validateFieldDirective, type WriteOptionsKind } from '../../apimachinery/fieldvalidation/index.ts';
import { checkBodyDepth } from '../../apimachinery/json-depth.ts';
import { queryBool, queryInt64, StrconvError } from '../../apimachinery/runtime/query-conversion.ts';
import { canEncode, decodeProtobuf } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
import { messageForKind } from '../../apimachinery/runtime/serializer/protobuf/descriptors.ts';
import { goOrderedDeep } from '../../apimachinery/runtime/serializer/protobuf/go-order.ts';
import { bodyFormat, negotiate, type NegotiationOptions, type Target } from '../negotiation.ts';
import { readBody } from '../request/body.ts';
import type { RequestState } from '../request/state.ts';
import { isGroupVersionAcceptor } from '../../registry/rest/capabilities.ts';
import { servesTypedObjects, type FieldValidationDirective, type HandlerDeps, type ResourceEndpoint } from './scope.ts';

export function endpointGVK(ep: ResourceEndpoint): GroupVersionKind {
  return { ...ep.kindGroupVersion, kind: ep.kind };
}

/** Whether the endpoint serves its resource's own kind (not e.g. a Scale): only then is there a hub to convert to. */
const ownKind = (ep: ResourceEndpoint): boolean => ep.kindGroupVersion === ep.groupVersion ||
  (ep.kindGroupVersion.group === ep.groupVersion.group && ep.kindGroupVersion.version === ep.groupVersion.version);

/**
 * The dryRun query parameter: only "All" is valid. Rejects with 422 naming the options kind and,
 * as ValidateDryRun, the whole list as the bad value (`Unsupported value: ["x"]`).
 */
export function parseDryRun(q: URLSearchParams, optionsKind: string): boolean {
  const values = q.getAll('dryRun');
  if (values.some((v) => v !== 'All')) {
    throw newInvalid({ group: 'meta.k8s.io', kind: optionsKind }, '', [notSupported('dryRun', values, ['All'])]);
  }
  return values.length > 0;
}

/** fieldValidation: Ignore, Warn (the default) or Strict; anything else is a 422 naming the options kind. */
export function parseFieldValidation(q: URLSearchParams, optionsKind: WriteOptionsKind): FieldValidationDirective {
  return validateFieldDirective(q.get('fieldValidation') ?? undefined, optionsKind);
}

/**
 * Reads and decodes the body into an object of the endpoint's kind: fills a missing
 * apiVersion/kind from the endpoint, rejects a different one, applies field validation
 * and versioned defaults.
 */
export async function decodeRequestObject(ep: ResourceEndpoint, deps: HandlerDeps, req: IncomingMessage,
  state: RequestState, directive: FieldValidationDirective): Promise<KubeObject> {
  const body = await readBody(req);
  const format = bodyFormat(req.headers['content-type']);
  if (format === 'protobuf') {
    // Protobuf carries no unknown or duplicate fields: nothing for field validation to find.
    const { apiVersion, kind, obj } = decodeProtobuf(body);
    // Embedded JSON (RawExtension) and recursive messages can nest deeper than kapi stores.
    checkBodyDepth(obj, 'the object');
    return checkDecoded(ep, deps, { ...obj, apiVersion, kind }, [], '', state, directive);
  }
  return decodeObjectText(ep, deps, body.toString('utf8'), format, state, directive);
}

export function decodeObjectText(ep: ResourceEndpoint, deps: HandlerDeps, raw: string, format: 'json' | 'yaml',
  state: RequestState, directive: FieldValidationDirective): KubeObject {
  const { obj, problems } = deps.decodeBody(raw, format, endpointGVK(ep), directive);
  return checkDecoded(ep, deps, obj, problems, raw, state, directive);
}

function checkDecoded(ep: ResourceEndpoint, deps: HandlerDeps, obj: unknown, problems: readonly string[], raw: string,
  state: RequestState, directive: FieldValidationDirective): KubeObject {
  const gvk = endpointGVK(ep);
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw newBadRequest(`the object provided is unrecognized (must be of type ${ep.kind}): couldn't get version/kind; json parse error: expected an object (${summarize(raw)})`);
  }
  const o = obj as Record<string, unknown>;
  const apiVersion = typeof o['apiVersion'] === 'string' && o['apiVersion'] !== '' ? o['apiVersion'] : apiVersionOf(gvk);
  const kind = typeof o['kind'] === 'string' && o['kind'] !== '' ? o['kind'] : gvk.kind;
  const bodyGV = parseGroupVersion(apiVersion);
  let accepted = apiVersion;
  if (bodyGV === undefined || kind !== gvk.kind || bodyGV.group !== gvk.group || bodyGV.version !== gvk.version) {
    const version = bodyGV?.version ?? apiVersion;
    // kube's scheme knows every version of a built-in kind, served or not (apps/v1beta1,
    // extensions/v1beta1, ...); kapi's protobuf descriptors list the same ones.
    const registered = bodyGV !== undefined &&
      (deps.scheme.recognizes({ ...bodyGV, kind }) || (servesTypedObjects(deps) && canEncode(apiVersion, kind)));
    if (!registered || kind !== gvk.kind) {
      const why = registered
        ? `converting (${version}.${kind}) to (${gvk.group === '' ? 'core' : gvk.group.split('.')[0]}.${gvk.kind}): unknown conversion`
        : `no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:111"`;
      throw newBadRequest(`${kind} in version "${version}" cannot be handled as a ${gvk.kind}: ${why}`);
    }
    // The kind in another group version decodes (to the same internal type), then the handler
    // checks the group version (scope.AcceptsGroupVersion), which a storage may widen.
    if (!(isGroupVersionAcceptor(ep.storage) && ep.storage.acceptsGroupVersion(bodyGV))) {
      throw newBadRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${apiVersionOf(gvk)})`);
    }
    accepted = apiVersionOf(gvk);
  }
  if (problems.length > 0) {
    if (directive === 'Strict') {
      throw new DecodeError({ ...bodyGV, kind }, gvk, `strict decoding error: ${problems.join(', ')}`);
    }
    if (directive === 'Warn') for (const p of problems) state.addWarning(p);
  }
  o['apiVersion'] = accepted;
  o['kind'] = kind;
  if (!isKubeObject(o)) o['metadata'] = {};
  if (!isKubeObject(o)) throw new Error('decoded object without metadata');
  deps.scheme.default(o);
  state.audit?.logRequestObject(o);
  return o;
}

function summarize(raw: string): string {
  return raw.length > 30 ? `${raw.slice(0, 30)} ...` : raw;
}

/** Converts a decoded request object to the version the Store works in. */
export function toHub(ep: ResourceEndpoint, deps: HandlerDeps, obj: KubeObject): KubeObject {
  return ownKind(ep) ? deps.scheme.convertToVersion(obj, ep.hubVersion) : obj;
}

/**
 * Converts a stored (hub) object to the endpoint's version for the response. A converted built-in
 * object is put in its Go field order, as kube encodes the converted struct (a copy: conversions
 * may share parts with a cached object).
 */
export function toEndpointVersion(ep: ResourceEndpoint, deps: HandlerDeps, obj: KubeObject): KubeObject {
  if (obj.kind === 'Status' || !ownKind(ep)) return obj;
  const out = deps.scheme.convertToVersion(obj, ep.groupVersion);
  return out === obj ? out : inGoOrder(structuredClone(out), deps);
}

/** A built-in object of a fresh copy (one no cache holds) in its kind's Go field order; others as they are. */
export function inGoOrder(obj: KubeObject, deps: HandlerDeps): KubeObject {
  const msg = servesTypedObjects(deps) ? messageForKind(obj.apiVersion ?? '', obj.kind ?? '') : undefined;
  return msg === undefined ? obj : goOrderedDeep(obj, msg, true);
}

/**
 * The items of a list answer in the endpoint's version. Built-in kinds are typed Go structs in
 * kube, whose list items are converted one by one and carry no kind or apiVersion (only the list
 * does); custom resources are unstructured and keep theirs (see servesTypedObjects).
 */
export function toListItems(ep: ResourceEndpoint, deps: HandlerDeps, objs: readonly KubeObject[]): KubeObject[] {
  return objs.map((o) => toListItem(ep, deps, o));
}

/** One item of a list in the endpoint's version; typed lists' items carry no kind/apiVersion. */
export function toListItem(ep: ResourceEndpoint, deps: HandlerDeps, obj: KubeObject): KubeObject {
  const converted = toEndpointVersion(ep, deps, obj);
  if (!servesTypedObjects(deps)) return converted;
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = converted;
  return rest;
}

/**
 * Negotiates the response format; protobuf is offered when the endpoint's kind has a protobuf
 * form, and never by a custom resource's handler, whose scale subresource refuses it too (406)
 * though Scale has one.
 */
export function negotiateFor(ep: ResourceEndpoint, deps: HandlerDeps, accept: string | undefined, opts: NegotiationOptions): Target {
  const apiVersion = apiVersionOf(ep.kindGroupVersion);
  return negotiate(accept, { ...opts, protobuf: servesTypedObjects(deps) && canEncode(apiVersion, ep.kind) });
}

/**
 * An int64 query parameter (Convert_Slice_string_To_int64): kube's handlers answer a value
 * strconv cannot parse with 400 BadRequest and strconv's text.
 */
export function parseIntParam(q: URLSearchParams, name: string): number | undefined {
  try {
    return queryInt64(q, name);
  } catch (err) {
    if (err instanceof StrconvError) throw newBadRequest(err.message);
    throw err;
  }
}

/** A boolean query parameter (Convert_Slice_string_To_bool): only "false" and "0" are false. */
export function parseBoolParam(q: URLSearchParams, name: string): boolean | undefined {
  return queryBool(q, name);
}
