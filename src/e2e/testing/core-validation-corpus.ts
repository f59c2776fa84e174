// The invalid-object corpus of the core/v1 kinds beside Pod spec, Service, Endpoints, PV and PVC:
// one case per rule of kube's pkg/apis/core/validation (ValidateNamespace*, ValidateNode*,
// ValidateConfigMap*, ValidateSecret*, ValidateServiceAccount*, ValidateLimitRange,
// ValidateResourceQuota*, ValidateReplicationController*, ValidatePodTemplate*, ValidatePodBinding)
// and the strategies of pkg/registry/core, plus valid objects that must be accepted. Sent to kapi
// and the reference kube-apiserver by e2e/core-validation.test.ts.
import { CERT_A, KEY_A, KEY_B, KEY_ED25519 } from './tls-pem.ts';
import { post, putBack, type ValidationCase } from './validation-differential.ts';

export type Obj = Record<string, unknown>;
export const b64 = (s: string): string => Buffer.from(s).toString('base64');
const ns = (n: string): string => `/api/v1/namespaces/${n}`;
export const coll = (n: string, resource: string): string => `${ns(n)}/${resource}`;

/** A create of one object built from the case's name and namespace. */
export const create = (name: string, body: (name: string, ns: string) => Obj, path: (ns: string) => string): ValidationCase =>
  ({ name, requests: (n, space) => [post(path(space), body(n, space))] });
/** Create a valid object, then change it and PUT it back (to the object or a subresource). */
export const update = (name: string, body: (name: string, ns: string) => Obj, path: (ns: string) => string, change: (o: Obj) => void, sub = ''): ValidationCase =>
  ({ name, requests: (n, space) => [post(path(space), body(n, space)), putBack(`${path(space)}/${n}${sub}`, change)] });
export const set = (o: Obj, path: readonly string[], v: unknown): void => {
  let cur = o;
  for (const k of path.slice(0, -1)) cur = (cur[k] ??= {}) as Obj;
  cur[path[path.length - 1]!] = v;
};

// Namespace
const nsBody = (spec: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, spec });
const nsPath = (): string => '/api/v1/namespaces';
const nsCreate = (name: string, body: (n: string) => Obj): ValidationCase => ({ name, requests: (n) => [post(nsPath(), body(n))] });
const NAMESPACE_CASES: ValidationCase[] = [
  nsCreate('namespace: valid', nsBody()),
  nsCreate('namespace: name not a DNS label', (n) => ({ metadata: { name: `${n}.x` } })),
  nsCreate('namespace: name with upper case', () => ({ metadata: { name: 'Bad' } })),
  nsCreate('namespace: finalizer unqualified', nsBody({ finalizers: ['bogus'] })),
  nsCreate('namespace: finalizer invalid', nsBody({ finalizers: ['a/b/c'] })),
  nsCreate('namespace: finalizer qualified', nsBody({ finalizers: ['example.com/f'] })),
  update('namespace: update spec finalizers ignored', nsBody(), nsPath, (o) => set(o, ['spec', 'finalizers'], ['bogus'])),
  update('namespace: update name label', nsBody(), nsPath, (o) => set(o, ['metadata', 'labels'], { 'kubernetes.io/metadata.name': 'other' })),
  update('namespace: status phase Terminating', nsBody(), nsPath, (o) => set(o, ['status', 'phase'], 'Terminating'), '/status'),
  update('namespace: status phase empty', nsBody(), nsPath, (o) => set(o, ['status', 'phase'], ''), '/status'),
  update('namespace: status condition', nsBody(), nsPath, (o) => set(o, ['status', 'conditions'], [{ type: 'Bogus', status: 'Bogus' }]), '/status'),
  update('namespace: finalize bad finalizer', nsBody(), nsPath, (o) => set(o, ['spec', 'finalizers'], ['bogus']), '/finalize'),
  update('namespace: finalize invalid finalizer', nsBody(), nsPath, (o) => set(o, ['spec', 'finalizers'], ['a/b/c']), '/finalize'),
  update('namespace: finalize qualified', nsBody(), nsPath, (o) => set(o, ['spec', 'finalizers'], ['example.com/x']), '/finalize'),
];

// Node
const nodePath = (): string => '/api/v1/nodes';
const nodeBody = (spec: Obj = {}, status: Obj = {}, metadata: Obj = {}) => (n: string): Obj => ({ metadata: { name: n, ...metadata }, spec, status });
const nodeCreate = (name: string, body: (n: string) => Obj): ValidationCase => ({ name, requests: (n) => [post(nodePath(), body(n))] });
const nodeUpdate = (name: string, change: (o: Obj) => void, sub = '', base = nodeBody()): ValidationCase => update(name, base, nodePath, change, sub);
const taint = (t: Obj): Obj => ({ taints: [{ key: 'k', value: 'v', effect: 'NoSchedule', ...t }] });
const NODE_CASES: ValidationCase[] = [
  nodeCreate('node: valid', nodeBody({ podCIDRs: ['10.1.0.0/24', 'fd00::/64'], taints: [{ key: 'k', effect: 'NoSchedule' }] }, { capacity: { cpu: '2', memory: '1Gi', pods: '110' } })),
  nodeCreate('node: name invalid', () => ({ metadata: { name: 'Bad_Name' } })),
  nodeCreate('node: taint key invalid', nodeBody(taint({ key: 'bad key' }))),
  nodeCreate('node: taint key empty', nodeBody(taint({ key: '' }))),
  nodeCreate('node: taint value invalid', nodeBody(taint({ value: 'bad value' }))),
  nodeCreate('node: taint effect empty', nodeBody(taint({ effect: '' }))),
  nodeCreate('node: taint effect Bogus', nodeBody(taint({ effect: 'Bogus' }))),
  nodeCreate('node: taint duplicate', nodeBody({ taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', value: 'x', effect: 'NoSchedule' }] })),
  nodeCreate('node: same taint key, other effect', nodeBody({ taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', effect: 'NoExecute' }] })),
  nodeCreate('node: podCIDR invalid', nodeBody({ podCIDRs: ['bogus'] })),
  nodeCreate('node: podCIDR with host bits', nodeBody({ podCIDRs: ['10.1.0.1/24'] })),
  nodeCreate('node: two IPv4 podCIDRs', nodeBody({ podCIDRs: ['10.1.0.0/24', '10.2.0.0/24'] })),
  nodeCreate('node: three podCIDRs', nodeBody({ podCIDRs: ['10.1.0.0/24', 'fd00::/64', '10.2.0.0/24'] })),
  nodeCreate('node: podCIDR unlike podCIDRs', nodeBody({ podCIDR: '10.1.0.0/24', podCIDRs: ['10.2.0.0/24'] })),
  nodeCreate('node: negative capacity', nodeBody({}, { capacity: { cpu: '-1' } })),
  nodeCreate('node: fractional pods', nodeBody({}, { capacity: { pods: '1.5' } })),
  nodeCreate('node: fractional extended resource', nodeBody({}, { allocatable: { 'example.com/gpu': '500m' } })),
  nodeCreate('node: capacity name invalid', nodeBody({}, { capacity: { 'bad name!': '1' } })),
  nodeCreate('node: taints annotation invalid', nodeBody({}, {}, { annotations: { 'scheduler.alpha.kubernetes.io/taints': 'bogus' } })),
  nodeCreate('node: avoid-pods annotation invalid', nodeBody({}, {}, { annotations: { 'scheduler.alpha.kubernetes.io/preferAvoidPods': 'bogus' } })),
  nodeCreate('node: configSource on create', nodeBody({ configSource: { configMap: { name: 'c' } } })),
  nodeCreate('node: declared feature invalid', nodeBody({}, { declaredFeatures: ['bad feature'] })),
  nodeCreate('node: declared features unsorted', nodeBody({}, { declaredFeatures: ['B', 'A', 'A'] })),
  nodeCreate('node: swap capacity negative', nodeBody({}, { nodeInfo: { swap: { capacity: -1 } } })),
  nodeCreate('node: podCIDR only', nodeBody({ podCIDR: '10.1.0.0/24' })),
  nodeCreate('node: podCIDR invalid only', nodeBody({ podCIDR: 'bogus' })),
  nodeCreate('node: taints annotation with a bad taint', nodeBody({}, {}, { annotations: { 'scheduler.alpha.kubernetes.io/taints': '[{"key":"k","effect":"Bogus"}]' } })),
  nodeCreate('node: taints annotation not a list', nodeBody({}, {}, { annotations: { 'scheduler.alpha.kubernetes.io/taints': '{}' } })),
  nodeCreate('node: taint with timeAdded', nodeBody({ taints: [{ key: 'k', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' }, { key: 'k', effect: 'NoExecute' }] })),
  nodeCreate('node: name too long', (n) => ({ metadata: { name: `${'a'.repeat(250)}-${n}` } })),
  nodeCreate('node: fractional hugepages', nodeBody({}, { capacity: { 'hugepages-2Mi': '1.5' } })),
  nodeUpdate('node: update podCIDRs set', (o) => set(o, ['spec', 'podCIDRs'], ['10.1.0.0/24'])),
  nodeUpdate('node: update podCIDRs changed', (o) => set(o, ['spec', 'podCIDRs'], ['10.2.0.0/24']), '', nodeBody({ podCIDRs: ['10.1.0.0/24'] })),
  nodeUpdate('node: update podCIDRs dropped', (o) => set(o, ['spec', 'podCIDRs'], []), '', nodeBody({ podCIDRs: ['10.1.0.0/24'] })),
  nodeUpdate('node: update providerID changed', (o) => set(o, ['spec', 'providerID'], 'b'), '', nodeBody({ providerID: 'a' })),
  nodeUpdate('node: update providerID set', (o) => set(o, ['spec', 'providerID'], 'b')),
  nodeUpdate('node: update externalID', (o) => set(o, ['spec', 'externalID'], 'x')),
  nodeUpdate('node: update taint effect Bogus', (o) => set(o, ['spec', 'taints'], [{ key: 'k', effect: 'Bogus' }])),
  nodeUpdate('node: update configSource empty', (o) => set(o, ['spec', 'configSource'], {})),
  nodeUpdate('node: update configSource configMap fields missing', (o) => set(o, ['spec', 'configSource'], { configMap: {} })),
  nodeUpdate('node: update configSource with resourceVersion', (o) => set(o, ['spec', 'configSource'], { configMap: { name: 'c', namespace: 'n', kubeletConfigKey: 'k', uid: 'u', resourceVersion: '1' } })),
  nodeUpdate('node: update configSource valid', (o) => set(o, ['spec', 'configSource'], { configMap: { name: 'c', namespace: 'n', kubeletConfigKey: 'k' } })),
  nodeUpdate('node: status duplicate address', (o) => set(o, ['status', 'addresses'], [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'InternalIP', address: '10.0.0.1' }]), '/status'),
  nodeUpdate('node: status negative allocatable', (o) => set(o, ['status', 'allocatable'], { memory: '-1Mi' }), '/status'),
  nodeUpdate('node: status fractional pods', (o) => set(o, ['status', 'capacity'], { pods: '0.5' }), '/status'),
  nodeUpdate('node: status config without fields', (o) => set(o, ['status', 'config'], { active: { configMap: { name: 'c' } }, error: '' }), '/status'),
  nodeUpdate('node: status config both', (o) => set(o, ['status', 'config'], { assigned: {}, lastKnownGood: { configMap: { name: 'c', namespace: 'n', kubeletConfigKey: 'k' } } }), '/status'),
  nodeUpdate('node: status taints changed through status', (o) => set(o, ['spec', 'taints'], [{ key: 'k', effect: 'Bogus' }]), '/status'),
  nodeUpdate('node: status declared features unsorted', (o) => set(o, ['status', 'declaredFeatures'], ['B', 'A']), '/status'),
  nodeUpdate('node: status swap capacity negative', (o) => set(o, ['status', 'nodeInfo'], { swap: { capacity: -5 } }), '/status'),
];

// ConfigMap and Secret
const cmPath = (space: string): string => coll(space, 'configmaps');
const cmBody = (extra: Obj) => (n: string): Obj => ({ metadata: { name: n }, ...extra });
const cmCreate = (name: string, extra: Obj): ValidationCase => create(name, cmBody(extra), cmPath);
const secretPath = (space: string): string => coll(space, 'secrets');
const secretBody = (extra: Obj, metadata: Obj = {}) => (n: string): Obj => ({ metadata: { name: n, ...metadata }, ...extra });
const secretCreate = (name: string, extra: Obj, metadata: Obj = {}): ValidationCase => create(name, secretBody(extra, metadata), secretPath);
const typed = (type: string, data: Obj = {}): Obj => ({ type, data });
const CONFIG_CASES: ValidationCase[] = [
  cmCreate('configmap: valid', { data: { 'a.b_c-d': 'x' }, binaryData: { bin: b64('x') } }),
  cmCreate('configmap: key invalid', { data: { 'bad key': 'x' } }),
  cmCreate('configmap: key dot', { data: { '.': 'x' } }),
  cmCreate('configmap: key dot dot', { data: { '..': 'x' } }),
  cmCreate('configmap: key starting with two dots', { data: { '..a': 'x' } }),
  cmCreate('configmap: key too long', { data: { [`k${'a'.repeat(253)}`]: 'x' } }),
  cmCreate('configmap: binary key invalid', { binaryData: { 'bad/key': b64('x') } }),
  cmCreate('configmap: key in data and binaryData', { data: { k: 'x' }, binaryData: { k: b64('x') } }),
  cmCreate('configmap: too large', { data: { a: 'x'.repeat(1024 * 1024 + 1) } }),
  cmCreate('configmap: binaryData not base64', { binaryData: { a: '!!!' } }),
  cmCreate('configmap: data value not a string', { data: { a: 1 } }),
  cmCreate('configmap: name invalid', { metadata: { name: 'Bad' } }),
  update('configmap: immutable data changed', cmBody({ data: { a: 'x' }, immutable: true }), cmPath, (o) => set(o, ['data'], { a: 'y' })),
  update('configmap: immutable binaryData changed', cmBody({ binaryData: { a: b64('x') }, immutable: true }), cmPath, (o) => set(o, ['binaryData'], { a: b64('y') })),
  update('configmap: immutable unset', cmBody({ data: { a: 'x' }, immutable: true }), cmPath, (o) => set(o, ['immutable'], false)),
  update('configmap: immutable labels changed', cmBody({ data: { a: 'x' }, immutable: true }), cmPath, (o) => set(o, ['metadata', 'labels'], { a: 'b' })),
  update('configmap: update key invalid', cmBody({}), cmPath, (o) => set(o, ['data'], { 'bad key': 'x' })),
  secretCreate('secret: valid opaque', { data: { k: b64('v') }, stringData: { s: 'v' } }),
  secretCreate('secret: key invalid', { data: { 'bad key': b64('v') } }),
  secretCreate('secret: stringData key invalid', { stringData: { 'bad key': 'v' } }),
  secretCreate('secret: too large', { data: { a: b64('x'.repeat(1024 * 1024 + 1)) } }),
  secretCreate('secret: type empty', { type: '' }),
  secretCreate('secret: type custom', { type: 'example.com/custom' }),
  secretCreate('secret: type invalid', { type: 'bad type' }),
  secretCreate('secret: service-account-token without annotation', typed('kubernetes.io/service-account-token')),
  secretCreate('secret: service-account-token with annotation', typed('kubernetes.io/service-account-token'), { annotations: { 'kubernetes.io/service-account.name': 'sa' } }),
  secretCreate('secret: dockercfg missing key', typed('kubernetes.io/dockercfg')),
  secretCreate('secret: dockercfg not json', typed('kubernetes.io/dockercfg', { '.dockercfg': b64('bogus') })),
  secretCreate('secret: dockercfg valid', typed('kubernetes.io/dockercfg', { '.dockercfg': b64('{}') })),
  secretCreate('secret: dockerconfigjson missing key', typed('kubernetes.io/dockerconfigjson')),
  secretCreate('secret: dockerconfigjson empty', typed('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': '' })),
  secretCreate('secret: dockerconfigjson array', typed('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('[1]') })),
  secretCreate('secret: basic-auth without keys', typed('kubernetes.io/basic-auth')),
  secretCreate('secret: basic-auth with password only', typed('kubernetes.io/basic-auth', { password: b64('p') })),
  secretCreate('secret: ssh-auth without key', typed('kubernetes.io/ssh-auth')),
  secretCreate('secret: ssh-auth empty key', typed('kubernetes.io/ssh-auth', { 'ssh-privatekey': '' })),
  secretCreate('secret: tls without keys', typed('kubernetes.io/tls')),
  secretCreate('secret: tls with cert only', typed('kubernetes.io/tls', { 'tls.crt': b64('c') })),
  secretCreate('secret: bootstrap token', typed('bootstrap.kubernetes.io/token', { 'token-id': b64('abcdef') })),
  update('secret: type changed', secretBody({}), secretPath, (o) => set(o, ['type'], 'example.com/other')),
  update('secret: immutable data changed', secretBody({ data: { a: b64('x') }, immutable: true }), secretPath, (o) => set(o, ['data'], { a: b64('y') })),
  update('secret: immutable unset', secretBody({ data: { a: b64('x') }, immutable: true }), secretPath, (o) => set(o, ['immutable'], false)),
  update('secret: immutable stringData', secretBody({ data: { a: b64('x') }, immutable: true }), secretPath, (o) => set(o, ['stringData'], { a: 'y' })),
  update('secret: update sa annotation removed', secretBody(typed('kubernetes.io/service-account-token'), { annotations: { 'kubernetes.io/service-account.name': 'sa' } }),
    secretPath, (o) => set(o, ['metadata', 'annotations'], {})),
  secretCreate('secret: basic-auth with username only', typed('kubernetes.io/basic-auth', { username: b64('u') })),
  secretCreate('secret: tls not PEM', typed('kubernetes.io/tls', { 'tls.crt': b64('c'), 'tls.key': b64('k') })),
  secretCreate('secret: tls valid pair', typed('kubernetes.io/tls', { 'tls.crt': b64(CERT_A), 'tls.key': b64(KEY_A) })),
  secretCreate('secret: tls key of another pair', typed('kubernetes.io/tls', { 'tls.crt': b64(CERT_A), 'tls.key': b64(KEY_B) })),
  secretCreate('secret: tls key of another type', typed('kubernetes.io/tls', { 'tls.crt': b64(CERT_A), 'tls.key': b64(KEY_ED25519) })),
  secretCreate('secret: tls inputs switched', typed('kubernetes.io/tls', { 'tls.crt': b64(KEY_A), 'tls.key': b64(CERT_A) })),
  secretCreate('secret: tls key not PEM', typed('kubernetes.io/tls', { 'tls.crt': b64(CERT_A), 'tls.key': b64('k') })),
  secretCreate('secret: tls key block broken', typed('kubernetes.io/tls', { 'tls.crt': b64(CERT_A), 'tls.key': b64('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n') })),
  secretCreate('secret: tls certificate block broken', typed('kubernetes.io/tls', { 'tls.crt': b64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), 'tls.key': b64(KEY_A) })),
  secretCreate('secret: tls other blocks', typed('kubernetes.io/tls', { 'tls.crt': b64('-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n'), 'tls.key': b64('-----BEGIN BAR-----\nAAAA\n-----END BAR-----\n') })),
  update('secret: update tls key of another pair', secretBody(typed('kubernetes.io/tls', { 'tls.crt': b64(CERT_A), 'tls.key': b64(KEY_A) })), secretPath,
    (o) => set(o, ['data', 'tls.key'], b64(KEY_B))),
  secretCreate('secret: dockerconfigjson literal broken', typed('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('nul') })),
  secretCreate('secret: data not base64', { data: { a: '!!!' } }),
  secretCreate('secret: stringData over data', { data: { a: b64('x') }, stringData: { a: 'y', 'bad key': 'z' } }),
  update('secret: update tls key removed', secretBody(typed('kubernetes.io/tls', { 'tls.crt': b64('c'), 'tls.key': b64('k') })), secretPath, (o) => set(o, ['data'], { 'tls.crt': b64('c') })),
];

// ServiceAccount
const saPath = (space: string): string => coll(space, 'serviceaccounts');
const saBody = (extra: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, ...extra });
const SERVICE_ACCOUNT_CASES: ValidationCase[] = [
  create('serviceaccount: valid', saBody({ secrets: [{ name: 's', namespace: 'x' }], imagePullSecrets: [{ name: 'p' }] }), saPath),
  create('serviceaccount: name invalid', () => ({ metadata: { name: 'Bad_Name' } }), saPath),
  create('serviceaccount: empty image pull secret', saBody({ imagePullSecrets: [{ name: '' }] }), saPath),
  create('serviceaccount: empty secret reference', saBody({ automountServiceAccountToken: true, secrets: [{}] }), saPath),
  update('serviceaccount: update secrets', saBody(), saPath, (o) => set(o, ['secrets'], [{ name: 'Bad_Name' }])),
  update('serviceaccount: update label invalid', saBody(), saPath, (o) => set(o, ['metadata', 'labels'], { 'bad key': 'v' })),
];

/** The same bad label on an update of each kind: kube's update validators repeat the metadata checks unevenly. */
const badLabel = (o: Obj): void => set(o, ['metadata', 'labels'], { 'bad key': 'v' });
const LABEL_UPDATE_CASES: ValidationCase[] = [
  update('namespace: update label invalid', nsBody(), nsPath, badLabel),
  update('node: update label invalid', nodeBody(), nodePath, badLabel),
  update('configmap: update label invalid', cmBody({}), cmPath, badLabel),
  update('secret: update label invalid', secretBody({}), secretPath, badLabel),
];

export const CORE_CASES: readonly ValidationCase[] = [...NAMESPACE_CASES, ...NODE_CASES, ...CONFIG_CASES, ...SERVICE_ACCOUNT_CASES, ...LABEL_UPDATE_CASES];
