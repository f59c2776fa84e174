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

/** ObjectMeta's fields that Go declares after resourceVersion (its JSON order). */
const AFTER_RESOURCE_VERSION = new Set(['generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds',
  'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields']);

/**
 * Sets metadata.resourceVersion where Go's encoder writes it (after uid; in sorted place for an
 * unstructured object), so that an answer reads as kube's does; the stored bytes never hold it.
 */
export function setResourceVersion(obj: KubeObject, rv: string, unstructured = false): void {
  const meta = obj.metadata;
  if (meta.resourceVersion !== undefined) { meta.resourceVersion = rv; return; }
  const keys = Object.keys(meta);
  // An unstructured object's keys are sorted (Codec.unstructured).
  const at = unstructured ? keys.findIndex((k) => k > 'resourceVersion') : keys.findIndex((k) => AFTER_RESOURCE_VERSION.has(k));
  if (at < 0) { meta.resourceVersion = rv; return; }
  const entries = Object.entries(meta);
  entries.splice(at, 0, ['resourceVersion', rv]);
  obj.metadata = Object.fromEntries(entries) as KubeObject['metadata'];
}

/** Decodes stored bytes into an object whose resourceVersion is `revision`. */
export function decodeAt(codec: Codec, data: string, revision: number): KubeObject {
  const obj = codec.decode(data);
  setResourceVersion(obj, String(revision), codec.unstructured === true);
  return obj;
}

/** Drops metadata.resourceVersion: the revision is the store's, never part of the stored bytes. */
export function forStorage(obj: KubeObject): KubeObject {
  if (obj.metadata.resourceVersion === undefined) return obj;
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
