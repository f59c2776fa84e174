// Maps revisions to metadata.resourceVersion (kube's APIObjectVersioner).
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/api_object_versioner.go.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { goQuote } from '../apimachinery/goformat/index.ts';
import { StorageError, type Codec } from './interfaces.ts';

const MAX_UINT64 = 18446744073709551615n;

/** strconv.ParseUint(s, 10, 64)'s error for s, or undefined when s parses. */
export function parseUintError(s: string): string | undefined {
  let n = 0n;
  for (const c of s) {
    if (c < '0' || c > '9') return `strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`;
    n = n * 10n + BigInt(c.charCodeAt(0) - 48);
    if (n > MAX_UINT64) return `strconv.ParseUint: parsing ${goQuote(s)}: value out of range`;
  }
  return undefined;
}

/**
 * '' and '0' are 0 (any); otherwise a decimal revision. Rejects with InvalidError whose message
 * is the field error kube's APIObjectVersioner returns (`resourceVersion: Invalid value: "x":
 * strconv.ParseUint: parsing "x": invalid syntax`); lists prefix it, see store-list.ts.
 */
export function parseResourceVersion(key: string, rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  if (!/^\d+$/.test(rv) || rv.length > 19) {
    const err = parseUintError(rv);
    if (err !== undefined) throw new StorageError('InvalidError', key, `resourceVersion: Invalid value: ${goQuote(rv)}: ${err}`);
  }
  return Number(rv);
}

/** Decodes stored bytes into an object whose resourceVersion is `revision`. */
export function decodeAt(codec: Codec, data: string, revision: number): KubeObject {
  const obj = codec.decode(data);
  obj.metadata.resourceVersion = String(revision);
  return obj;
}

/**
 * The object just written, stamped with its revision: what a decode of the stored bytes would
 * give (the codec writes the object's own version), without parsing them again.
 */
export function atRevision(obj: KubeObject, revision: number): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } };
}

/** Drops metadata.resourceVersion: the revision is the store's, never part of the stored bytes. */
export function forStorage(obj: KubeObject): KubeObject {
  if (obj.metadata.resourceVersion === undefined) return obj;
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
