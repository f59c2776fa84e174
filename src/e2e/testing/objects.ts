// Small typed helpers shared by the API-semantics e2e tests: the object shapes they read back and
// JSON requests that must succeed.
// No Go counterpart: the e2e test harness.
import assert from 'node:assert/strict';
import type { RawRequest, RawResponse } from './https-client.ts';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  time?: string;
  subresource?: string;
}

export interface Meta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; blockOwnerDeletion?: boolean }[];
  managedFields?: ManagedFieldsEntry[];
}

export interface Obj {
  kind?: string;
  apiVersion?: string;
  metadata: Meta;
  data?: Record<string, string>;
}

export interface ObjList {
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: Obj[];
}

/** The body of a response that must have the given status, parsed as JSON. */
export function expectJSON<T>(r: RawResponse, status: number, what: string): T {
  assert.equal(r.status, status, `${what}: ${r.text}`);
  return r.json() as T;
}

/** Creates the namespace `name`; fails the test unless the server answers 201. */
export async function createNamespace(s: { request(req: RawRequest): Promise<RawResponse> }, name: string): Promise<void> {
  const r = await s.request({ method: 'POST', path: '/api/v1/namespaces',
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) });
  assert.equal(r.status, 201, `create namespace ${name}: ${r.text}`);
}

export function configMap(name: string, data: Record<string, string>, meta: Partial<Meta> = {}): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...meta, name }, data });
}

/** The values of every `Warning` header of a response, in order. */
export function warnings(r: RawResponse): string[] {
  const h = r.headers['warning'];
  if (h === undefined) return [];
  // Node joins repeated headers with ", "; each kube warning starts with its `299 -` code.
  return (Array.isArray(h) ? h : [h]).flatMap((v) => v.split(/,\s*(?=299 - )/));
}

/** Every namespace holds kube-root-ca.crt (root-ca-cert-publisher): leave it out when a test counts its own configmaps. */
export const ownConfigMaps = (names: readonly (string | undefined)[]): (string | undefined)[] =>
  names.filter((n) => n !== 'kube-root-ca.crt');

/** The value at a path of keys and indexes in parsed JSON, or undefined where the path leaves it. */
export function at(v: unknown, ...path: (string | number)[]): unknown {
  let cur: unknown = v;
  for (const k of path) {
    if (typeof k === 'number') cur = Array.isArray(cur) ? cur[k] : undefined;
    else cur = typeof cur === 'object' && cur !== null && !Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined;
  }
  return cur;
}
