// Content negotiation: which serialization and which shape (object, Table,
// PartialObjectMetadata) a client accepts, and which body formats a request may carry.
import { newNotAcceptable, newUnsupportedMediaType } from '../apimachinery/errors/status-error.ts';

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
}

export const JSON_TARGET: Target = { format: 'json', shape: 'object', apiVersion: '', contentType: 'application/json' };

const cache = new Map<string, MediaRange[]>();

export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header === '') return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const hit = cache.get(header);
  if (hit !== undefined) return hit;
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mt = '', ...paramParts] = part.trim().split(';');
    const [type = '', subtype = ''] = mt.trim().toLowerCase().split('/');
    if (type === '' || subtype === '') continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    ranges.push({ type, subtype, params, q });
  }
  // Stable sort by q, most preferred first.
  const sorted = ranges.map((r, i) => ({ r, i })).sort((a, b) => b.r.q - a.r.q || a.i - b.i).map((x) => x.r);
  if (cache.size < 256) cache.set(header, sorted);
  return sorted;
}

function formatOf(r: MediaRange, protobuf: boolean): Format | undefined {
  if (r.type === '*' && r.subtype === '*') return 'json';
  if (r.type !== 'application') return undefined;
  if (r.subtype === 'json' || r.subtype === '*') return 'json';
  if (r.subtype === 'yaml') return 'yaml';
  if (r.subtype === 'vnd.kubernetes.protobuf' && protobuf) return 'protobuf';
  return undefined;
}

const CONTENT_TYPES: Record<Format, string> = {
  json: 'application/json', yaml: 'application/yaml', protobuf: 'application/vnd.kubernetes.protobuf',
};

export interface NegotiationOptions {
  /** Shapes this endpoint can produce besides the object itself. */
  readonly allowTable?: boolean;
  readonly allowPartialMetadata?: boolean;
  readonly allowDiscovery?: boolean;
  /** Serialization is for a list response (PartialObjectMetadataList). */
  readonly list?: boolean;
  /** The objects have a protobuf form (built-in kinds; not custom resources). */
  readonly protobuf?: boolean;
}

/** Picks the first acceptable media range; rejects with 406 NotAcceptable when none is. */
export function negotiate(accept: string | undefined, opts: NegotiationOptions): Target {
  for (const r of parseAccept(accept)) {
    if (r.q <= 0) continue;
    const format = formatOf(r, opts.protobuf === true);
    if (format === undefined) continue;
    const as = r.params['as'];
    if (as === undefined) {
      return format === 'json' ? JSON_TARGET : { format, shape: 'object', apiVersion: '', contentType: CONTENT_TYPES[format] };
    }
    const g = r.params['g'] ?? '';
    const v = r.params['v'] ?? '';
    if (g === 'meta.k8s.io' && (v === 'v1' || v === 'v1beta1')) {
      const apiVersion = `meta.k8s.io/${v}`;
      const ct = `${CONTENT_TYPES[format]};as=${as};g=${g};v=${v}`;
      // A Table has no protobuf form: kube skips such a media range.
      if (as === 'Table' && opts.allowTable === true && format !== 'protobuf') {
        return { format, shape: 'Table', apiVersion, contentType: ct };
      }
      if (opts.allowPartialMetadata === true) {
        if (as === 'PartialObjectMetadata' && opts.list !== true) return { format, shape: as, apiVersion, contentType: ct };
        if (as === 'PartialObjectMetadataList' && opts.list === true) return { format, shape: as, apiVersion, contentType: ct };
      }
    }
    if (g === 'apidiscovery.k8s.io' && (v === 'v2' || v === 'v2beta1') && as === 'APIGroupDiscoveryList' &&
        opts.allowDiscovery === true) {
      return { format, shape: as, apiVersion: `${g}/${v}`, contentType: `${CONTENT_TYPES[format]};g=${g};v=${v};as=${as}` };
    }
  }
  throw newNotAcceptable(opts.protobuf === true
    ? ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']
    : ['application/json', 'application/yaml']);
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf';
export type PatchType = 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply-yaml' | 'apply-json';

/** The format of a request body; rejects with 415 for anything else. */
export function bodyFormat(contentType: string | undefined): BodyFormat {
  const mt = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mt === 'application/json' || mt === '') return 'json';
  if (mt === 'application/yaml') return 'yaml';
  if (mt === 'application/vnd.kubernetes.protobuf') return 'protobuf';
  throw newUnsupportedMediaType(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
}

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json-patch',
  'application/merge-patch+json': 'merge-patch',
  'application/strategic-merge-patch+json': 'strategic-merge-patch',
  'application/apply-patch+yaml': 'apply-yaml',
  'application/apply-patch+json': 'apply-json',
};

export function patchType(contentType: string | undefined, supported: readonly PatchType[]): PatchType {
  const mt = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const t = PATCH_TYPES[mt];
  if (t === undefined || !supported.includes(t)) {
    const accepted = Object.entries(PATCH_TYPES).filter(([, v]) => supported.includes(v)).map(([k]) => k);
    throw newUnsupportedMediaType(accepted);
  }
  return t;
}
