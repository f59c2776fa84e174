// CustomResourceDefinitions are stored as apiextensions.k8s.io/v1beta1 JSON, as kube-apiserver's
// apiextensions server stores them (its storage version never moved to v1), so that kube and kapi
// read each other's CRDs on one etcd. v1beta1 is not served: it exists only in storage.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1 and v1 conversion.go
// (v1 → internal → v1beta1 and back), for the fields where the two versions differ.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { StorageEncoding } from '../../registry/rest/strategy.ts';

export const V1BETA1 = 'apiextensions.k8s.io/v1beta1';
const V1 = 'apiextensions.k8s.io/v1';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Printer columns: v1's jsonPath is v1beta1's JSONPath. */
function renameColumns(cols: unknown, from: string, to: string): unknown {
  if (!Array.isArray(cols)) return cols;
  return cols.map((c: unknown) => {
    if (!isObj(c) || !(from in c)) return c;
    const { [from]: path, ...rest } = c;
    return { ...rest, [to]: path };
  });
}

/** v1 → v1beta1: spec.version names the first version; the webhook's fields move up into conversion. */
export function crdToV1beta1(obj: KubeObject): KubeObject {
  const o: Obj = { ...obj };
  const spec = isObj(o['spec']) ? o['spec'] : {};
  const versions = Array.isArray(spec['versions']) ? spec['versions'] as unknown[] : [];
  const first = versions.find(isObj);
  const out: Obj = { ...spec };
  if (first !== undefined && typeof first['name'] === 'string') out['version'] = first['name'];
  out['versions'] = versions.map((v) => (isObj(v) && 'additionalPrinterColumns' in v
    ? { ...v, additionalPrinterColumns: renameColumns(v['additionalPrinterColumns'], 'jsonPath', 'JSONPath') } : v));
  if (isObj(spec['conversion'])) {
    const { webhook, ...conversion } = spec['conversion'];
    if (isObj(webhook)) {
      if (webhook['clientConfig'] !== undefined) conversion['webhookClientConfig'] = webhook['clientConfig'];
      if (webhook['conversionReviewVersions'] !== undefined) conversion['conversionReviewVersions'] = webhook['conversionReviewVersions'];
    }
    out['conversion'] = conversion;
  }
  out['preserveUnknownFields'] = spec['preserveUnknownFields'] === true;
  const converted: KubeObject & Obj = { ...obj, apiVersion: V1BETA1, spec: out };
  return converted;
}

/**
 * v1beta1 → v1: the version-wide validation, subresources and printer columns apply to every
 * version that has none of its own; spec.version is dropped.
 */
export function crdFromV1beta1(obj: KubeObject): KubeObject {
  const o: Obj = { ...obj };
  const spec = isObj(o['spec']) ? o['spec'] : {};
  const { version, validation, subresources, additionalPrinterColumns, conversion, preserveUnknownFields, ...rest } = spec;
  let versions = Array.isArray(spec['versions']) ? spec['versions'] as unknown[] : [];
  if (versions.length === 0 && typeof version === 'string') versions = [{ name: version, served: true, storage: true }];
  const out: Obj = { ...rest };
  out['versions'] = versions.map((v) => {
    if (!isObj(v)) return v;
    const w: Obj = { ...v };
    if (w['schema'] === undefined && validation !== undefined) w['schema'] = validation;
    if (w['subresources'] === undefined && subresources !== undefined) w['subresources'] = subresources;
    const cols = w['additionalPrinterColumns'] ?? additionalPrinterColumns;
    if (cols !== undefined) w['additionalPrinterColumns'] = renameColumns(cols, 'JSONPath', 'jsonPath');
    return w;
  });
  if (isObj(conversion)) {
    const { webhookClientConfig, conversionReviewVersions, ...c } = conversion;
    if (webhookClientConfig !== undefined) {
      c['webhook'] = { clientConfig: webhookClientConfig, ...(conversionReviewVersions !== undefined ? { conversionReviewVersions } : {}) };
    }
    out['conversion'] = c;
  }
  // v1's bool is omitted when false.
  if (preserveUnknownFields === true) out['preserveUnknownFields'] = true;
  const converted: KubeObject & Obj = { ...obj, apiVersion: V1, spec: out };
  return converted;
}

export const crdStorageEncoding: StorageEncoding = {
  mediaType: 'application/json',
  version: { apiVersion: V1BETA1, toStorage: crdToV1beta1, fromStorage: crdFromV1beta1 },
};
