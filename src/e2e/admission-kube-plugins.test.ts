// The admission plugins of issue 14 against a started kapi and, where built, the kube-apiserver
// oracle with the same --enable-admission-plugins and --admission-control-config-file: each case
// sends the same request to both and expects the same answer (status, message, the fields the
// plugin sets). RBAC is on so that the plugins asking the authorizer can be refused, through an
// impersonated user the admin grants exactly what a case needs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

interface Target { readonly name: string; request(req: RawRequest): Promise<RawResponse> }

const PLUGINS = 'AlwaysPullImages,DenyServiceExternalIPs,PodNodeSelector,PodTolerationRestriction,OwnerReferencesPermissionEnforcement';
const CONFIG = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodNodeSelector
  configuration:
    podNodeSelectorPluginConfig:
      adm-sel: env=dev,zone=a
`;
const USER = { 'Impersonate-User': 'alice' };

const post = (path: string, body: unknown, headers?: Record<string, string>): RawRequest =>
  ({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json', ...(headers === undefined ? {} : { headers }) });
const ns = (name: string, annotations: Record<string, string> = {}): unknown =>
  ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, annotations } });
const podIn = (namespace: string, name: string, spec: Record<string, unknown> = {}): [string, unknown] =>
  [`/api/v1/namespaces/${namespace}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', imagePullPolicy: 'IfNotPresent' }], ...spec } }];

async function csrRequest(subject: string): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys: keys as unknown as x509.Pkcs10CertificateRequestCreateParams['keys'], signingAlgorithm: alg });
  return Buffer.from(csr.toString('pem')).toString('base64');
}

async function selfSignedPEM(): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=alice', keys: keys as unknown as x509.X509CertificateCreateSelfSignedParams['keys'], signingAlgorithm: alg,
    notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000),
  });
  return cert.toString('pem');
}

/** Namespaces, service accounts (kube-apiserver alone has no controller making `default`), RBAC for alice. */
async function setUp(t: Target): Promise<void> {
  const must = async (req: RawRequest): Promise<void> => {
    const r = await t.request(req);
    assert.ok(r.status === 201 || r.status === 409, `${t.name} ${req.method} ${req.path}: ${r.text}`);
  };
  await must(post('/api/v1/namespaces', ns('adm-plain')));
  await must(post('/api/v1/namespaces', ns('adm-sel', { 'scheduler.alpha.kubernetes.io/node-selector': 'env=dev' })));
  await must(post('/api/v1/namespaces', ns('adm-tol', { 'scheduler.alpha.kubernetes.io/tolerationsWhitelist': '[{"key":"allowed","operator":"Exists"}]' })));
  for (const n of ['adm-plain', 'adm-sel', 'adm-tol']) {
    await must(post(`/api/v1/namespaces/${n}/serviceaccounts`, { metadata: { name: 'default' } }));
  }
  await must(post('/api/v1/namespaces/adm-plain/serviceaccounts', { metadata: { name: 'puller' }, imagePullSecrets: [{ name: 'regcred' }] }));
  await must(post('/api/v1/namespaces/adm-plain/serviceaccounts', {
    metadata: { name: 'strict', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'allowed' }],
  }));
  await must(post('/api/v1/nodes', { metadata: { name: 'adm-zoned', labels: { 'topology.kubernetes.io/zone': 'z1', 'example.com/other': 'x' } } }));
  await must(post('/api/v1/nodes', { metadata: { name: 'adm-small' } }));
  const st = await t.request({ method: 'PATCH', path: '/api/v1/nodes/adm-small/status', contentType: 'application/merge-patch+json',
    body: JSON.stringify({ status: { allocatable: { cpu: '1', memory: '1Gi', pods: '10' }, capacity: { cpu: '1', memory: '1Gi', pods: '10' } } }) });
  assert.equal(st.status, 200, `${t.name}: ${st.text}`);
  await must(post('/apis/node.k8s.io/v1/runtimeclasses', {
    metadata: { name: 'sandboxed' }, handler: 'runsc', overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
    scheduling: { nodeSelector: { sandbox: 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
  }));
  await must(post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    metadata: { name: 'adm-alice' },
    rules: [
      { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status'],
        verbs: ['create', 'get', 'update'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update'] },
    ],
  }));
  await must(post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    metadata: { name: 'adm-alice' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'adm-alice' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
  }));
}

interface Case {
  readonly name: string;
  readonly req: () => Promise<RawRequest>;
  readonly code: number;
  readonly message?: string;
  /** What the created object must carry. */
  readonly check?: (obj: Record<string, unknown>) => void;
}

type Obj = Record<string, unknown> & { spec: Record<string, unknown> };
const spec = (o: Record<string, unknown>): Record<string, unknown> => (o as Obj).spec;

const CASES: readonly Case[] = [
  { name: 'TaintNodesByCondition taints a new node not-ready', req: async () => post('/api/v1/nodes', { metadata: { name: 'adm-node' } }), code: 201,
    check: (o) => assert.deepEqual(spec(o)['taints'], [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]) },
  { name: 'RuntimeClass sets overhead, node selector and tolerations', req: async () => post(...podIn('adm-plain', 'rc', { runtimeClassName: 'sandboxed' })), code: 201,
    check: (o) => {
      assert.deepEqual(spec(o)['overhead'], { cpu: '250m', memory: '64Mi' });
      assert.deepEqual(spec(o)['nodeSelector'], { sandbox: 'true' });
      assert.deepEqual((spec(o)['tolerations'] as { key: string }[]).find((t) => t.key === 'sandbox'), { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' });
    } },
  { name: 'RuntimeClass refuses a missing class', req: async () => post(...podIn('adm-plain', 'rc-missing', { runtimeClassName: 'nope' })), code: 403,
    message: 'pods "rc-missing" is forbidden: pod rejected: RuntimeClass "nope" not found' },
  { name: 'RuntimeClass refuses a conflicting node selector', req: async () => post(...podIn('adm-plain', 'rc-conflict', { runtimeClassName: 'sandboxed', nodeSelector: { sandbox: 'no' } })),
    code: 403, message: 'pods "rc-conflict" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = true; pod.spec.nodeSelector[sandbox] = no' },
  { name: 'RuntimeClass refuses an overhead without a class', req: async () => post(...podIn('adm-plain', 'rc-overhead', { overhead: { cpu: '1' } })),
    code: 403, message: 'pods "rc-overhead" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
  { name: 'PodTopologyLabels copies the node\'s zone to a pod created on it', req: async () => post(...podIn('adm-plain', 'zoned', { nodeName: 'adm-zoned' })), code: 201,
    check: (o) => assert.deepEqual((o['metadata'] as { labels?: unknown }).labels, { 'topology.kubernetes.io/zone': 'z1' }) },
  { name: 'AlwaysPullImages sets Always', req: async () => post(...podIn('adm-plain', 'pull')), code: 201,
    check: (o) => assert.equal((spec(o)['containers'] as Record<string, unknown>[])[0]?.['imagePullPolicy'], 'Always') },
  { name: 'ServiceAccount refuses a missing service account', req: async () => post(...podIn('adm-plain', 'sa-missing', { serviceAccountName: 'ghost' })), code: 403,
    message: 'pods "sa-missing" is forbidden: error looking up service account adm-plain/ghost: serviceaccount "ghost" not found' },
  { name: 'ServiceAccount projects the API access volume as kube', req: async () => post(...podIn('adm-plain', 'sa')), code: 201,
    check: (o) => {
      const volumes = spec(o)['volumes'] as { name: string }[];
      assert.match(volumes[0]?.name ?? '', /^kube-api-access-[a-z0-9]{5}$/);
      assert.deepEqual({ ...volumes[0], name: 'x' }, { name: 'x', projected: { defaultMode: 420, sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ] } });
      assert.deepEqual((spec(o)['containers'] as Record<string, unknown>[])[0]?.['volumeMounts'],
        [{ name: volumes[0]?.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    } },
  { name: 'ServiceAccount copies the account\'s image pull secrets', req: async () => post(...podIn('adm-plain', 'sa-pull', { serviceAccountName: 'puller' })), code: 201,
    check: (o) => assert.deepEqual(spec(o)['imagePullSecrets'], [{ name: 'regcred' }]) },
  { name: 'ServiceAccount enforces mountable secrets', req: async () => post(...podIn('adm-plain', 'sa-strict', {
    serviceAccountName: 'strict', automountServiceAccountToken: false, volumes: [{ name: 's', secret: { secretName: 'other' } }],
  })), code: 403,
  message: 'pods "sa-strict" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret' },
  { name: 'DenyServiceExternalIPs refuses external IPs', req: async () => post('/api/v1/namespaces/adm-plain/services',
    { metadata: { name: 'ext' }, spec: { ports: [{ port: 80 }], externalIPs: ['192.0.2.10'] } }), code: 403,
  message: 'services "ext" is forbidden: Use of external IPs is denied by admission control' },
  { name: 'PodNodeSelector merges the namespace selector', req: async () => post(...podIn('adm-sel', 'sel', { nodeSelector: { zone: 'a' } })), code: 201,
    check: (o) => assert.deepEqual(spec(o)['nodeSelector'], { env: 'dev', zone: 'a' }) },
  { name: 'PodNodeSelector refuses a conflict', req: async () => post(...podIn('adm-sel', 'sel-conflict', { nodeSelector: { env: 'prod' } })), code: 403,
    message: 'pods "sel-conflict" is forbidden: pod node label selector conflicts with its namespace node label selector' },
  { name: 'PodNodeSelector refuses labels outside the whitelist', req: async () => post(...podIn('adm-sel', 'sel-white', { nodeSelector: { gpu: 'yes' } })), code: 403,
    message: 'pods "sel-white" is forbidden: pod node label selector labels conflict with its namespace whitelist' },
  { name: 'PodTolerationRestriction refuses tolerations outside the namespace whitelist', req: async () => post(...podIn('adm-tol', 'tol')), code: 500,
    message: 'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist' },
  { name: 'CertificateSubjectRestriction refuses system:masters for kube-apiserver-client', req: async () => post('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
    metadata: { name: 'adm-masters' }, spec: { request: await csrRequest('CN=root,O=system:masters'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
  }), code: 403, message: 'certificatesigningrequests.certificates.k8s.io "adm-masters" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed' },
  { name: 'OwnerReferencesPermissionEnforcement refuses blockOwnerDeletion without finalizers rights', req: async () => post('/api/v1/namespaces/adm-plain/configmaps', {
    metadata: { name: 'owned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '6b7c3f4e-0000-4000-8000-000000000001', blockOwnerDeletion: true }] },
  }, USER), code: 403, message: 'configmaps "owned" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>' },
];

async function approvalRefused(t: Target): Promise<void> {
  const name = 'adm-approve';
  const created = await t.request(post('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
    metadata: { name }, spec: { request: await csrRequest('CN=alice'), signerName: 'example.com/signer', usages: ['client auth'] },
  }, USER));
  assert.equal(created.status, 201, `${t.name}: ${created.text}`);
  const csr = created.json() as Record<string, unknown> & { status?: Record<string, unknown> };
  csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'R', message: 'm' }] };
  const r = await t.request({ method: 'PUT', path: `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}/approval`,
    body: JSON.stringify(csr), contentType: 'application/json', headers: USER });
  assert.equal(r.status, 403, `${t.name}: ${r.text}`);
  assert.equal((r.json() as { message: string }).message,
    `certificatesigningrequests.certificates.k8s.io "${name}" is forbidden: user not permitted to approve requests with signerName "example.com/signer"`);
  // Issuing the certificate (status) needs `sign` on the signer (CertificateSigning).
  csr.status = { certificate: Buffer.from(await selfSignedPEM()).toString('base64') };
  const signed = await t.request({ method: 'PUT', path: `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}/status`,
    body: JSON.stringify(csr), contentType: 'application/json', headers: USER });
  assert.equal(signed.status, 403, `${t.name}: ${signed.text}`);
  assert.equal((signed.json() as { message: string }).message,
    `certificatesigningrequests.certificates.k8s.io "${name}" is forbidden: user not permitted to sign requests with signerName "example.com/signer"`);
}

/** Changing owner references on update needs delete on the object (OwnerReferencesPermissionEnforcement). */
async function ownerUpdateRefused(t: Target): Promise<void> {
  const created = await t.request(post('/api/v1/namespaces/adm-plain/configmaps', { metadata: { name: 'reowned' } }, USER));
  assert.equal(created.status, 201, `${t.name}: ${created.text}`);
  const cm = created.json() as { metadata: Record<string, unknown> };
  cm.metadata['ownerReferences'] = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '6b7c3f4e-0000-4000-8000-000000000002' }];
  const r = await t.request({ method: 'PUT', path: '/api/v1/namespaces/adm-plain/configmaps/reowned', body: JSON.stringify(cm), contentType: 'application/json', headers: USER });
  assert.equal(r.status, 403, `${t.name}: ${r.text}`);
  assert.equal((r.json() as { message: string }).message, 'configmaps "reowned" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');
}

async function resizeRefused(t: Target): Promise<void> {
  const created = await t.request(post(...podIn('adm-plain', 'resize-me', {
    nodeName: 'adm-small', containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m' } } }],
  })));
  assert.equal(created.status, 201, `${t.name}: ${created.text}`);
  const r = await t.request({ method: 'PATCH', path: '/api/v1/namespaces/adm-plain/pods/resize-me/resize', contentType: 'application/strategic-merge-patch+json',
    body: JSON.stringify({ spec: { containers: [{ name: 'c', resources: { requests: { cpu: '4' } } }] } }) });
  assert.equal(r.status, 403, `${t.name}: ${r.text}`);
  const st = r.json() as { message: string; details?: { causes?: unknown[] } };
  assert.equal(st.message, 'pods "resize-me" is forbidden: node didn\'t have enough allocatable resources: cpu, requested: 4000, allocatable: 1000');
  assert.deepEqual(st.details?.causes, [{ reason: 'NodeCapacity' }]);

  // Resizing pod-level resources needs a node declaring the feature (NodeDeclaredFeatureValidator).
  const podLevel = await t.request(post(...podIn('adm-plain', 'pod-level', {
    nodeName: 'adm-small', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } },
  })));
  assert.equal(podLevel.status, 201, `${t.name}: ${podLevel.text}`);
  const r2 = await t.request({ method: 'PATCH', path: '/api/v1/namespaces/adm-plain/pods/pod-level/resize', contentType: 'application/merge-patch+json',
    body: JSON.stringify({ spec: { resources: { requests: { cpu: '150m' }, limits: { cpu: '200m' } } } }) });
  assert.equal(r2.status, 403, `${t.name}: ${r2.text}`);
  assert.equal((r2.json() as { message: string }).message,
    'pods "pod-level" is forbidden: pod update requires features InPlacePodLevelResourcesVerticalScaling which are not available on node "adm-small"');
}

async function runCases(t: Target): Promise<void> {
  await setUp(t);
  for (const c of CASES) {
    const r = await t.request(await c.req());
    assert.equal(r.status, c.code, `${t.name} ${c.name}: ${r.text}`);
    const body = r.json() as Record<string, unknown>;
    if (c.message !== undefined) assert.equal(body['message'], c.message, `${t.name} ${c.name}`);
    c.check?.(body);
  }
  await approvalRefused(t);
  await ownerUpdateRefused(t);
  await resizeRefused(t);
}

describe('admission plugins (issue 14) against kapi and the oracle', () => {
  let dir = '';
  let suite: Suite | undefined;
  let oracle: Oracle | undefined;
  const skipOracle = oracleUnavailable();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-admission-plugins-'));
    const config = join(dir, 'admission.yaml');
    await writeFile(config, CONFIG);
    const flags = ['--enable-admission-plugins', PLUGINS, '--admission-control-config-file', config];
    suite = await startSuite({ flags: [...flags, '--authorization-mode', 'RBAC'] });
    if (skipOracle === undefined) oracle = await startOracle({ authorizationModes: ['RBAC'], flags });
  });
  after(async () => {
    await oracle?.stop();
    await suite?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('kapi', async () => {
    assert.ok(suite !== undefined);
    const s = suite;
    await runCases({ name: 'kapi', request: (r) => s.request(r) });
  });

  it('kube-apiserver (oracle)', { skip: skipOracle }, async () => {
    assert.ok(oracle !== undefined);
    const o = oracle;
    await runCases({ name: 'kube', request: (r) => o.request(r) });
  });
});
