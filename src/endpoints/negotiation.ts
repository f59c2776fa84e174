// Content negotiation: which serialization and which shape (object, Table,
// PartialObjectMetadata) a client accepts, and which body formats a request may carry.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/negotiation.
import { newGenericServerResponse, newNotAcceptable, newUnsupportedMediaType } from '../apimachinery/errors/status-error.ts';
import { parseMediaType } from './media-type.ts';

export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
}

export type Format = 'json' | 'yaml' | 'protobuf';
export type Shape = 'object' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList' | 'APIGroupDiscoveryList';

export interface Target {
  readonly format: Format;
  readonly shape: Shape;
  /** apiVersion of the transformed shape (meta.k8s.io/v1, apidiscovery.k8s.io/v2, ...). */
  readonly apiVersion: string;
  readonly contentType: string;
  /** The Accept clause asked for indented JSON (`pretty=1`); see also RequestState.isPrettyPrint. */
  readonly pretty?: boolean;
}

export const JSON_TARGET: Target = { format: 'json', shape: 'object', apiVersion: '', contentType: 'application/json' };

/** The media types of kube's serializers (MediaTypesForSerializer; CBOR is off by default). */
export const MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
/** What a list route also produces (the watch stream types). */
export const ALL_MEDIA_TYPES: readonly string[] = [
  ...MEDIA_TYPES, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch',
];

const cache = new Map<string, MediaRange[]>();

// goautoneg's order: higher q first, then a concrete type before "*", a concrete subtype before "*".
const wildcardRank = (r: MediaRange): number => (r.type === '*' ? 2 : 0) + (r.subtype === '*' ? 1 : 0);

/** The longest Accept header parseAccept keeps (for tests: long ones must not be kept). */
export const cachedAcceptLength = (): number => Math.max(0, ...[...cache.keys()].map((k) => k.length));

/** goautoneg.ParseAccept: clauses most preferred first; parameters are kept verbatim. */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header === '') return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const hit = cache.get(header);
  if (hit !== undefined) return hit;
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mt = '', ...paramParts] = part.trim().split(';');
    const sp = mt.split('/');
    const type = (sp[0] ?? '').trim();
    let subtype: string;
    if (sp.length === 1 && type === '*') subtype = '*';
    else if (sp.length === 2) subtype = (sp[1] ?? '').trim();
    else continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim();
      const v = p.slice(eq + 1);
      if (k === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) && v.trim() === v && v !== '' ? n : 0;
      } else {
        params[k] = v.trim();
      }
    }
    ranges.push({ type, subtype, params, q });
  }
  const sorted = ranges.map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.q - a.r.q || wildcardRank(a.r) - wildcardRank(b.r) || a.i - b.i).map((x) => x.r);
  // Clients send a handful of short Accept headers; a long one (up to the 1 MiB header limit)
  // is parsed each time rather than kept.
  if (cache.size < 256 && header.length <= 512) cache.set(header, sorted);
  return sorted;
}

interface SerializerInfo {
  readonly format: Format;
  readonly subtype: string;
  readonly mediaType: string;
  readonly stream: boolean;
}

// The order of kube's CodecFactory: the first one answers an absent Accept or "*/*".
const SERIALIZERS: readonly SerializerInfo[] = [
  { format: 'json', subtype: 'json', mediaType: 'application/json', stream: true },
  { format: 'yaml', subtype: 'yaml', mediaType: 'application/yaml', stream: false },
  { format: 'protobuf', subtype: 'vnd.kubernetes.protobuf', mediaType: 'application/vnd.kubernetes.protobuf', stream: true },
];

export interface NegotiationOptions {
  /** Shapes this endpoint can produce besides the object itself. */
  readonly allowTable?: boolean;
  readonly allowPartialMetadata?: boolean;
  /** Serialization is for a list response (PartialObjectMetadataList). */
  readonly list?: boolean;
  /**
   * Both PartialObjectMetadata and PartialObjectMetadataList negotiate, as in kube, whose
   * transform then refuses the one that does not fit the result (handlers/transform.ts).
   */
  readonly anyPartial?: boolean;
  /**
   * The objects have a protobuf form (built-in kinds; not custom resources, whose handler lists
   * protobuf among its serializers but refuses it for the objects themselves).
   */
  readonly protobuf?: boolean;
  /**
   * 'resource': a resource handler (RequestScope's restrictions: Table and PartialObjectMetadata
   * transforms). 'default': DefaultEndpointRestrictions (legacy discovery, errors): no transform
   * at all. 'discovery': only apidiscovery.k8s.io/v2 APIGroupDiscoveryList.
   */
  readonly restrictions?: 'resource' | 'default' | 'discovery';
  /** A watch: only the serializers with a stream form (JSON, protobuf; not YAML) may answer. */
  readonly stream?: boolean;
}

/** What a watch may be served as (NegotiateOutputMediaTypeStream's list). */
const STREAM_MEDIA_TYPES: readonly string[] = ['application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];

function transformTarget(s: SerializerInfo, params: Readonly<Record<string, string>>, opts: NegotiationOptions): Target | undefined {
  const as = params['as'];
  const g = params['g'];
  const v = params['v'];
  const restrictions = opts.restrictions ?? 'resource';
  if (as === undefined && g === undefined && v === undefined) {
    if (restrictions === 'discovery') return undefined;
    if (restrictions === 'resource' && s.format === 'protobuf' && opts.protobuf !== true) return undefined;
    return s.format === 'json' ? JSON_TARGET : { format: s.format, shape: 'object', apiVersion: '', contentType: s.mediaType };
  }
  if (restrictions === 'discovery') {
    if (g !== 'apidiscovery.k8s.io' || v !== 'v2' || as !== 'APIGroupDiscoveryList') return undefined;
    return { format: s.format, shape: as, apiVersion: `${g}/${v}`, contentType: `${s.mediaType};g=${g};v=${v};as=${as}` };
  }
  if (restrictions === 'default' || g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) return undefined;
  const apiVersion = `meta.k8s.io/${v}`;
  // kube writes a transformed object with the serializer's own media type (WriteObjectNegotiated
  // sends serializer.MediaType): `application/json`, not the Accept clause's as/g/v.
  const ct = s.mediaType;
  // A Table has no protobuf form: kube allows it only as JSON or YAML.
  if (as === 'Table') {
    return opts.allowTable === true && s.format !== 'protobuf' ? { format: s.format, shape: 'Table', apiVersion, contentType: ct } : undefined;
  }
  if (opts.allowPartialMetadata === true) {
    const either = opts.anyPartial === true;
    if (as === 'PartialObjectMetadata' && (opts.list !== true || either)) return { format: s.format, shape: as, apiVersion, contentType: ct };
    if (as === 'PartialObjectMetadataList' && (opts.list === true || either)) return { format: s.format, shape: as, apiVersion, contentType: ct };
  }
  return undefined;
}

/** acceptMediaTypeOptions: the target of one clause for one serializer, or undefined to skip it. */
function acceptOptions(s: SerializerInfo, params: Readonly<Record<string, string>>, opts: NegotiationOptions): Target | undefined {
  const stream = params['stream'];
  if (stream !== undefined && stream !== '' && (!s.stream || stream !== 'watch')) return undefined;
  const sv = params['sv'];
  if (sv !== undefined && sv !== '' && ((opts.restrictions ?? 'resource') !== 'resource' || sv !== 'v1')) return undefined;
  const t = transformTarget(s, params, opts);
  // acceptMediaTypeOptions reads pretty=1 (only "1"); only JSON has a pretty serializer.
  return t !== undefined && s.format === 'json' && params['pretty'] === '1' ? { ...t, pretty: true } : t;
}

/**
 * NegotiateMediaTypeOptions: the first clause (in goautoneg order) that a serializer matches and
 * the endpoint's restrictions allow. Undefined when none does.
 */
export function tryNegotiate(accept: string | undefined, opts: NegotiationOptions): Target | undefined {
  if (accept === undefined || accept === '') return transformTarget(SERIALIZERS[0] as SerializerInfo, {}, opts);
  for (const c of parseAccept(accept)) {
    for (const s of SERIALIZERS) {
      if (opts.stream === true && !s.stream) continue;
      const matches = (c.type === 'application' && (c.subtype === s.subtype || c.subtype === '*'))
        || (c.type === '*' && c.subtype === '*');
      if (!matches) continue;
      const t = acceptOptions(s, c.params, opts);
      if (t !== undefined) return t;
    }
  }
  return undefined;
}

/** Picks the target of the Accept header; rejects with 406 NotAcceptable (kube's text) when none fits. */
export function negotiate(accept: string | undefined, opts: NegotiationOptions): Target {
  const t = tryNegotiate(accept, opts);
  if (t === undefined) throw newNotAcceptable(opts.stream === true ? STREAM_MEDIA_TYPES : MEDIA_TYPES);
  return t;
}

/**
 * go-restful's Accept check (RouterJSR311.detectRoute), which runs before kube's handler
 * negotiates: some clause's bare media type must be "*\/*" or one the route produces. Rejects
 * with 406 "406: Not Acceptable\n\nAvailable representations: ..." otherwise.
 */
export function checkRouteAccept(accept: string | undefined, produces: readonly string[]): void {
  const header = accept === undefined || accept === '' ? '*/*' : accept;
  for (const part of header.split(',')) {
    const semi = part.indexOf(';');
    const mt = (semi === -1 ? part : part.slice(0, semi)).replace(/^ +| +$/g, '');
    if (mt === '*/*' || produces.includes(mt)) return;
  }
  throw newGenericServerResponse(406, `406: Not Acceptable\n\nAvailable representations: ${produces.join(', ')}`);
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf';
export type PatchType = 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply-yaml';

/**
 * The format of a request body (NegotiateInputSerializer): no Content-Type is JSON; one Go's
 * mime.ParseMediaType refuses, or of another type, is a 415. Parameters (charset) are not read.
 */
export function bodyFormat(contentType: string | undefined): BodyFormat {
  const mt = contentType === undefined || contentType === '' ? 'application/json' : parseMediaType(contentType)?.mediaType;
  if (mt === 'application/json') return 'json';
  if (mt === 'application/yaml') return 'yaml';
  if (mt === 'application/vnd.kubernetes.protobuf') return 'protobuf';
  throw newUnsupportedMediaType(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
}

// kube 1.36 has no JSON form of apply ("application/apply-patch+json" is a 415 there too).
const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json-patch',
  'application/merge-patch+json': 'merge-patch',
  'application/strategic-merge-patch+json': 'strategic-merge-patch',
  'application/apply-patch+yaml': 'apply-yaml',
};

/** What a built-in resource's PATCH route consumes (installer.go), whatever the handler then supports. */
const ROUTE_PATCH_TYPES: readonly string[] = Object.keys(PATCH_TYPES);

/**
 * go-restful's Route.matchesContentType: some comma-separated element of the header, cut at
 * ";" and trimmed, is a type the route consumes; a PATCH without Content-Type counts as
 * application/octet-stream.
 */
function routeConsumes(header: string): boolean {
  const value = header === '' ? 'application/octet-stream' : header;
  return value.split(',').some((part) => {
    const semi = part.indexOf(';');
    return ROUTE_PATCH_TYPES.includes((semi === -1 ? part : part.slice(0, semi)).trim());
  });
}

/**
 * The patch type of a PATCH request. Built-in resources (routeBody set) are refused by
 * go-restful's Content-Type check first: 415 "415: Unsupported Media Type" when the request has
 * a body, else its Accept check's 415 with an empty list. Then kube's handler takes the header
 * up to its first ";" (untrimmed, so "a, b" or "x ;y" are no patch type) and answers anything
 * it does not support with its own "the body of the request was in an unknown format" text.
 */
export function patchType(contentType: string | undefined, supported: readonly PatchType[],
  routeBody?: { readonly contentLength: number }): PatchType {
  const header = contentType ?? '';
  if (routeBody !== undefined && !routeConsumes(header)) {
    throw newGenericServerResponse(415, routeBody.contentLength > 0
      ? '415: Unsupported Media Type' : '415: Unsupported Media Type\n\nAvailable representations: ');
  }
  const semi = header.indexOf(';');
  const mt = semi > 0 ? header.slice(0, semi) : header;
  const t = Object.hasOwn(PATCH_TYPES, mt) ? PATCH_TYPES[mt] : undefined;
  if (t === undefined || !supported.includes(t)) {
    const accepted = Object.entries(PATCH_TYPES).filter(([, v]) => supported.includes(v)).map(([k]) => k);
    throw newUnsupportedMediaType(accepted);
  }
  return t;
}
