// Maps revisions to metadata.resourceVersion (kube's APIObjectVersioner).
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { StorageError, type Codec } from './interfaces.ts';

/** '' and '0' are 0 (any); otherwise a decimal revision. Rejects with InvalidError. */
export function parseResourceVersion(key: string, rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  if (!/^\d+$/.test(rv)) {
    throw new StorageError('InvalidError', key, `invalid resource version: resourceVersion: Invalid value: "${rv}"`);
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
