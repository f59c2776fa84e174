// The objects of the aggregator tests, for kapi and for the oracle alike: the front-proxy PKI and
// flags, the Service and EndpointSlice of a test backend, and APIServices each failing (or not)
// its availability check in one of kube's ways, with the condition kube writes for each.
// No Go counterpart: the e2e test harness.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newSelfSignedCACert, newSignedCert, type CertKeyPair } from '../../apimachinery/util/cert.ts';
import { GROUP, UNSERVED_VERSION, type AggregatedBackend } from './aggregated-backend.ts';
import type { RawRequest, RawResponse } from './https-client.ts';

export const NS = 'wardle';
export const SERVICE = 'api';

export type Send = (req: RawRequest) => Promise<RawResponse>;
export interface Condition { readonly type: string; readonly status: string; readonly reason?: string; readonly message?: string }

export interface FrontProxy {
  readonly ca: CertKeyPair;
  /** The kube-apiserver flags: proxy client certificate and request-header authentication. */
  readonly flags: readonly string[];
  /** The request-header flags alone (an aggregated server's). */
  readonly requestHeaderFlags: readonly string[];
}

/** A front-proxy CA, the aggregator's client certificate signed by it, in `dir`. */
export async function newFrontProxy(dir: string): Promise<FrontProxy> {
  const ca = await newSelfSignedCACert({ commonName: 'front-proxy-ca', validityDays: 1 });
  const client = await newSignedCert(ca, { commonName: 'front-proxy-client', usages: ['clientAuth'], validityDays: 1 });
  await writeFile(join(dir, 'front-proxy-ca.crt'), ca.cert);
  await writeFile(join(dir, 'proxy.crt'), client.cert);
  await writeFile(join(dir, 'proxy.key'), client.key);
  const requestHeaderFlags = [
    '--requestheader-client-ca-file', join(dir, 'front-proxy-ca.crt'), '--requestheader-allowed-names', 'front-proxy-client',
    '--requestheader-username-headers', 'X-Remote-User', '--requestheader-group-headers', 'X-Remote-Group',
    '--requestheader-extra-headers-prefix', 'X-Remote-Extra-', '--requestheader-uid-headers', 'X-Remote-Uid',
  ];
  return {
    ca, requestHeaderFlags,
    flags: [
      '--enable-aggregator-routing', '--proxy-client-cert-file', join(dir, 'proxy.crt'), '--proxy-client-key-file', join(dir, 'proxy.key'),
      ...requestHeaderFlags,
    ],
  };
}

export async function create(send: Send, path: string, body: unknown): Promise<void> {
  const r = await send({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json' });
  assert.ok(r.status === 201 || r.status === 409, `${path}: ${r.status} ${r.text}`);
}

export function apiService(version: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `${version}.${GROUP}` },
    spec: { group: GROUP, version, groupPriorityMinimum: 1000, versionPriority: 15, ...spec },
  };
}

/** The namespace, the Service (443 → the backend's port) and a ready EndpointSlice. */
export async function createBackendObjects(send: Send, backend: AggregatedBackend): Promise<void> {
  await create(send, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await create(send, `/api/v1/namespaces/${NS}/services`, {
    apiVersion: 'v1', kind: 'Service', metadata: { name: SERVICE }, spec: { ports: [{ port: 443, targetPort: backend.port }] },
  });
  await create(send, `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`, {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'api-1', labels: { 'kubernetes.io/service-name': SERVICE } },
    addressType: 'IPv4', endpoints: [{ addresses: [backend.host], conditions: { ready: true } }], ports: [{ name: '', port: backend.port }],
  });
}

export async function availableCondition(send: Send, name: string): Promise<Condition | undefined> {
  const r = await send({ method: 'GET', path: `/apis/apiregistration.k8s.io/v1/apiservices/${name}` });
  assert.equal(r.status, 200, r.text);
  return (r.json() as { status?: { conditions?: Condition[] } }).status?.conditions?.find((c) => c.type === 'Available');
}

/** Polls (at most 90 times, a second apart) until the Available condition has `reason`. */
export async function waitReason(send: Send, name: string, reason: string): Promise<Condition> {
  let last: Condition | undefined;
  for (let i = 0; i < 90; i++) {
    last = await availableCondition(send, name);
    if (last?.reason === reason) return last;
    await sleep(1000);
  }
  assert.fail(`${name}: Available never had reason ${reason}; last ${JSON.stringify(last)}`);
}

export interface AvailabilityCase {
  readonly name: string;
  readonly version: string;
  readonly spec: (backend: AggregatedBackend, otherCABundle: string) => Record<string, unknown>;
  readonly want: (backend: AggregatedBackend) => { status: string; reason: string; message: string };
}

const svc = (port = 443): Record<string, unknown> => ({ service: { namespace: NS, name: SERVICE, port } });
const url = (b: AggregatedBackend, version: string): string => `https://${b.host}:${String(b.port)}/apis/${GROUP}/${version}`;

/** One APIService per way kube's availability check ends, with what kube v1.36.3 writes. */
export const AVAILABILITY_CASES: readonly AvailabilityCase[] = [
  { name: 'local', version: 'v1beta1', spec: () => ({}),
    want: () => ({ status: 'True', reason: 'Local', message: 'Local APIServices are always available' }) },
  { name: 'service without the port', version: 'v1beta2', spec: (b) => ({ ...svc(444), caBundle: b.caBundle }),
    want: () => ({ status: 'False', reason: 'ServicePortError', message: 'service/api in "wardle" is not listening on port 444' }) },
  { name: 'no such service', version: 'v1beta3', spec: (b) => ({ service: { namespace: NS, name: 'nosuch', port: 443 }, caBundle: b.caBundle }),
    want: () => ({ status: 'False', reason: 'ServiceNotFound', message: 'service/nosuch in "wardle" is not present' }) },
  { name: 'a CA that did not sign the backend', version: 'v1beta4', spec: (_b, other) => ({ ...svc(), caBundle: other }),
    want: (b) => ({ status: 'False', reason: 'FailedDiscoveryCheck',
      message: `failing or missing response from ${url(b, 'v1beta4')}: Get "${url(b, 'v1beta4')}": tls: failed to verify certificate: x509: certificate signed by unknown authority` }) },
  { name: 'insecureSkipTLSVerify', version: 'v1beta5', spec: () => ({ ...svc(), insecureSkipTLSVerify: true }),
    want: () => ({ status: 'True', reason: 'Passed', message: 'all checks passed' }) },
  { name: 'discovery answers 404', version: UNSERVED_VERSION, spec: (b) => ({ ...svc(), caBundle: b.caBundle }),
    want: (b) => ({ status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${url(b, UNSERVED_VERSION)}: bad status from ${url(b, UNSERVED_VERSION)}: 404` }) },
];

/** The request-header keys of kube-system/extension-apiserver-authentication for newFrontProxy's flags (CA PEM without line breaks). */
export function wantRequestHeaderData(frontProxy: FrontProxy): Record<string, string> {
  return {
    'requestheader-allowed-names': '["front-proxy-client"]', 'requestheader-client-ca-file': frontProxy.ca.cert.replace(/\s+/g, ''),
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]', 'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-uid-headers': '["X-Remote-Uid"]', 'requestheader-username-headers': '["X-Remote-User"]',
  };
}

/** The request-header keys as published (CA PEM without line breaks), undefined when the ConfigMap is missing. */
export async function publishedRequestHeaderData(send: Send): Promise<Record<string, string> | undefined> {
  const r = await send({ method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication' });
  if (r.status === 404) return undefined;
  assert.equal(r.status, 200, r.text);
  const data = (r.json() as { data?: Record<string, string> }).data ?? {};
  return Object.fromEntries(Object.entries(data).filter(([k]) => k.startsWith('requestheader-'))
    .map(([k, v]) => [k, k === 'requestheader-client-ca-file' ? v.replace(/\s+/g, '') : v]));
}

/**
 * Edits the ConfigMap's username headers, then deletes it, and returns the request-header keys
 * the server publishes again at once (polling at most 100 times, 100 ms apart). kube undoes an
 * edit only at its next minute's resync, and a delete at once.
 */
export async function editThenDeleteAuthConfigMap(send: Send): Promise<Record<string, string> | undefined> {
  const path = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
  const edited = await send({ method: 'PATCH', path, body: JSON.stringify({ data: { 'requestheader-username-headers': '["X-Other"]' } }),
    contentType: 'application/merge-patch+json' });
  assert.equal(edited.status, 200, edited.text);
  const deleted = await send({ method: 'DELETE', path });
  assert.equal(deleted.status, 200, deleted.text);
  let after: Record<string, string> | undefined;
  for (let i = 0; i < 100; i++) {
    after = await publishedRequestHeaderData(send);
    if (after !== undefined) break;
    await sleep(100);
  }
  return after;
}
