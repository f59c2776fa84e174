// The resource.k8s.io/v1 corpus of issue 12: one case per rule of kube's validation of DeviceClass,
// ResourceClaim, ResourceClaimTemplate and ResourceSlice (pkg/apis/resource/validation and the
// declarative tags of k8s.io/api/resource/v1): creates, updates, status updates, and valid
// objects. kube's answers are recorded in fixtures/resource-validation-kube.json. CEL selector
// expressions that do not compile are left out: kapi has no CEL compiler yet (the CEL issue).
// Admin access and the extended claim status are in resource-status-corpus.ts.
import { patch, post, type ValidationCase } from './validation-differential.ts';

type Obj = Record<string, unknown>;
const GROUP = '/apis/resource.k8s.io/v1';
const DC = `${GROUP}/deviceclasses`;
const SLICES = `${GROUP}/resourceslices`;
const claimsIn = (ns: string): string => `${GROUP}/namespaces/${ns}/resourceclaims`;
const templatesIn = (ns: string): string => `${GROUP}/namespaces/${ns}/resourceclaimtemplates`;

const create = (name: string, path: (ns: string) => string, body: (n: string) => Obj): ValidationCase =>
  ({ name, requests: (n, ns) => [post(path(ns), body(n))] });
const update = (name: string, path: (ns: string) => string, body: (n: string) => Obj, change: Obj, sub = ''): ValidationCase =>
  ({ name, requests: (n, ns) => [post(path(ns), body(n)), patch(`${path(ns)}/${n}${sub}`, change)] });
const fixed = (p: string) => (): string => p;

// --- DeviceClass ----------------------------------------------------------------------------
const dc = (spec: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, spec });
const cel = (expression: string): Obj => ({ cel: { expression } });
const opaque = (extra: Obj = {}): Obj => ({ opaque: { driver: 'gpu.example.com', parameters: { a: 1 }, ...extra } });

const DEVICE_CLASS: ValidationCase[] = [
  create('dc: valid', fixed(DC), dc({ selectors: [cel('device.driver == "gpu.example.com"')], config: [opaque()], extendedResourceName: 'example.com/gpu' })),
  create('dc: valid empty', fixed(DC), dc()),
  create('dc: name invalid', fixed(DC), () => ({ metadata: { name: 'Bad_Class' }, spec: {} })),
  create('dc: selector without cel', fixed(DC), dc({ selectors: [{}] })),
  create('dc: 33 selectors', fixed(DC), dc({ selectors: Array.from({ length: 33 }, () => cel('true')) })),
  create('dc: config without opaque', fixed(DC), dc({ config: [{}] })),
  create('dc: opaque driver empty', fixed(DC), dc({ config: [opaque({ driver: '' })] })),
  create('dc: opaque driver invalid', fixed(DC), dc({ config: [opaque({ driver: 'Bad_Driver' })] })),
  create('dc: opaque parameters missing', fixed(DC), dc({ config: [opaque({ parameters: undefined })] })),
  create('dc: opaque parameters not an object', fixed(DC), dc({ config: [opaque({ parameters: [1] })] })),
  create('dc: extendedResourceName invalid', fixed(DC), dc({ extendedResourceName: 'cpu' })),
  create('dc: 33 configs', fixed(DC), dc({ config: Array.from({ length: 33 }, () => opaque()) })),
  create('dc: name too long', fixed(DC), () => ({ metadata: { name: 'a'.repeat(254) }, spec: {} })),
  update('dc update: selectors changed allowed', fixed(DC), dc(), { spec: { selectors: [cel('true')] } }),
];

// --- ResourceClaim and ResourceClaimTemplate -------------------------------------------------
const exactly = (extra: Obj = {}): Obj => ({ deviceClassName: 'gpu', ...extra });
const req = (extra: Obj = {}): Obj => ({ name: 'gpu', exactly: exactly(), ...extra });
const claim = (devices: Obj = { requests: [req()] }) => (n: string): Obj => ({ metadata: { name: n }, spec: { devices } });
const claimCase = (name: string, devices: Obj): ValidationCase => create(`claim: ${name}`, claimsIn, claim(devices));

const CLAIM: ValidationCase[] = [
  claimCase('valid', { requests: [req({ exactly: exactly({ selectors: [cel('device.driver == "gpu.example.com"')], allocationMode: 'ExactCount', count: 2,
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }] }) })],
    constraints: [{ requests: ['gpu'], matchAttribute: 'gpu.example.com/model' }], config: [{ requests: ['gpu'], ...opaque() }] }),
  claimCase('valid firstAvailable', { requests: [{ name: 'r', firstAvailable: [{ name: 'a', deviceClassName: 'gpu' }, { name: 'b', deviceClassName: 'gpu', allocationMode: 'All' }] }] }),
  claimCase('valid empty', {}),
  { name: 'claim: name invalid', requests: (_n, ns) => [post(claimsIn(ns), claim()('Bad_Claim'))] },
  claimCase('capacity requests valid', { requests: [req({ exactly: exactly({ capacity: { requests: { memory: '1Gi' } } }) })] }),
  claimCase('capacity request name invalid', { requests: [req({ exactly: exactly({ capacity: { requests: { 'bad name': '1Gi' } } }) })] }),
  claimCase('toleration Equal with bad value', { requests: [req({ exactly: exactly({ tolerations: [{ key: 'k', operator: 'Equal', value: 'bad value' }] }) })] }),
  claimCase('request name empty', { requests: [req({ name: '' })] }),
  claimCase('request name invalid', { requests: [req({ name: 'Bad_Name' })] }),
  claimCase('request names duplicate', { requests: [req(), req()] }),
  claimCase('request neither exactly nor firstAvailable', { requests: [{ name: 'gpu' }] }),
  claimCase('request both exactly and firstAvailable', { requests: [req({ firstAvailable: [{ name: 'a', deviceClassName: 'gpu' }] })] }),
  claimCase('deviceClassName empty', { requests: [req({ exactly: exactly({ deviceClassName: '' }) })] }),
  claimCase('deviceClassName invalid', { requests: [req({ exactly: exactly({ deviceClassName: 'Bad_Class' }) })] }),
  claimCase('allocationMode Bogus', { requests: [req({ exactly: exactly({ allocationMode: 'Bogus' }) })] }),
  claimCase('count zero', { requests: [req({ exactly: exactly({ allocationMode: 'ExactCount', count: -1 }) })] }),
  claimCase('All with count', { requests: [req({ exactly: exactly({ allocationMode: 'All', count: 2 }) })] }),
  claimCase('toleration operator Bogus', { requests: [req({ exactly: exactly({ tolerations: [{ key: 'k', operator: 'Bogus' }] }) })] }),
  claimCase('toleration effect Bogus', { requests: [req({ exactly: exactly({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'Bogus' }] }) })] }),
  claimCase('toleration key invalid', { requests: [req({ exactly: exactly({ tolerations: [{ key: 'bad key', operator: 'Exists' }] }) })] }),
  claimCase('toleration Exists with value', { requests: [req({ exactly: exactly({ tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] }) })] }),
  claimCase('subrequest name duplicate', { requests: [{ name: 'r', firstAvailable: [{ name: 'a', deviceClassName: 'gpu' }, { name: 'a', deviceClassName: 'gpu' }] }] }),
  claimCase('subrequest deviceClassName empty', { requests: [{ name: 'r', firstAvailable: [{ name: 'a', deviceClassName: '' }] }] }),
  claimCase('33 requests', { requests: Array.from({ length: 33 }, (_, i) => req({ name: `r${i}` })) }),
  claimCase('nine subrequests', { requests: [{ name: 'r', firstAvailable: Array.from({ length: 9 }, (_, i) => ({ name: `s${i}`, deviceClassName: 'gpu' })) }] }),
  claimCase('constraint subrequest ref valid', { requests: [{ name: 'r', firstAvailable: [{ name: 'a', deviceClassName: 'gpu' }] }],
    constraints: [{ requests: ['r/a'], distinctAttribute: 'gpu.example.com/model' }] }),
  claimCase('constraint subrequest ref unknown', { requests: [{ name: 'r', firstAvailable: [{ name: 'a', deviceClassName: 'gpu' }] }],
    constraints: [{ requests: ['r/x'], matchAttribute: 'gpu.example.com/model' }] }),
  claimCase('constraint ref with two slashes', { requests: [req()], constraints: [{ requests: ['a/b/c'], matchAttribute: 'gpu.example.com/model' }] }),
  claimCase('constraint requests duplicate', { requests: [req()], constraints: [{ requests: ['gpu', 'gpu'], matchAttribute: 'gpu.example.com/model' }] }),
  claimCase('constraint unknown request', { requests: [req()], constraints: [{ requests: ['other'], matchAttribute: 'gpu.example.com/model' }] }),
  claimCase('constraint without attribute', { requests: [req()], constraints: [{ requests: ['gpu'] }] }),
  claimCase('constraint matchAttribute invalid', { requests: [req()], constraints: [{ matchAttribute: 'model' }] }),
  claimCase('config unknown request', { requests: [req()], config: [{ requests: ['other'], ...opaque() }] }),
  claimCase('config without opaque', { requests: [req()], config: [{ requests: ['gpu'] }] }),
  update('claim update: spec', claimsIn, claim(), { spec: { devices: { requests: [req({ name: 'other' })] } } }),
  update('claim update: labels allowed', claimsIn, claim(), { metadata: { labels: { a: 'b' } } }),
  update('claim status: reservedFor without allocation', claimsIn, claim(), { status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] } }, '/status'),
  update('claim status: reservedFor incomplete', claimsIn, claim(), { status: { reservedFor: [{}] } }, '/status'),
  update('claim status: allocation valid', claimsIn, claim(), { status: { allocation: { devices: { results: [
    { request: 'gpu', driver: 'gpu.example.com', pool: 'pool', device: 'dev-0' }] } } } }, '/status'),
  update('claim status: allocation unknown request', claimsIn, claim(), { status: { allocation: { devices: { results: [
    { request: 'other', driver: 'gpu.example.com', pool: 'pool', device: 'dev-0' }] } } } }, '/status'),
  update('claim status: allocation result fields invalid', claimsIn, claim(), { status: { allocation: { devices: { results: [
    { request: 'gpu', driver: 'Bad_Driver', pool: '', device: 'Bad_Device' }] } } } }, '/status'),
  update('claim status: reservedFor duplicate uid', claimsIn, claim(), { status: { allocation: { devices: { results: [] } },
    reservedFor: [{ resource: 'pods', name: 'a', uid: 'u1' }, { resource: 'pods', name: 'b', uid: 'u1' }] } }, '/status'),
  update('claim status: allocation config source Bogus', claimsIn, claim(), { status: { allocation: { devices: { results: [],
    config: [{ source: 'Bogus', ...opaque() }] } } } }, '/status'),
  { name: 'claim status: allocation changed', requests: (n, ns) => [post(claimsIn(ns), claim()(n)),
    patch(`${claimsIn(ns)}/${n}/status`, { status: { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'pool', device: 'dev-0' }] } } } }),
    patch(`${claimsIn(ns)}/${n}/status`, { status: { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'pool', device: 'dev-1' }] } } } })] },
  update('claim status: device status valid', claimsIn, claim(), { status: { allocation: { devices: { results: [
    { request: 'gpu', driver: 'gpu.example.com', pool: 'pool', device: 'dev-0' }] } }, devices: [{ driver: 'gpu.example.com', pool: 'pool', device: 'dev-0' }] } }, '/status'),
  update('claim status: shareID invalid', claimsIn, claim(), { status: { allocation: { devices: { results: [
    { request: 'gpu', driver: 'gpu.example.com', pool: 'pool', device: 'dev-0', shareID: 'not-a-uuid' }] } } } }, '/status'),
  update('claim status: devices not allocated', claimsIn, claim(), { status: { devices: [
    { driver: 'gpu.example.com', pool: 'pool', device: 'dev-0' }] } }, '/status'),
];

const tmpl = (devices: Obj = { requests: [req()] }, metadata: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, spec: { metadata, spec: { devices } } });

const TEMPLATE: ValidationCase[] = [
  create('template: valid', templatesIn, tmpl(undefined, { labels: { a: 'b' } })),
  create('template: name invalid', templatesIn, () => tmpl()('Bad_Template')),
  create('template: request name invalid', templatesIn, tmpl({ requests: [req({ name: 'Bad_Name' })] })),
  create('template: deviceClassName empty', templatesIn, tmpl({ requests: [req({ exactly: exactly({ deviceClassName: '' }) })] })),
  create('template: metadata label invalid', templatesIn, tmpl(undefined, { labels: { 'bad key': 'v' } })),
  create('template: metadata name set', templatesIn, (n) => ({ metadata: { name: n }, spec: { metadata: { name: 'x', namespace: 'y' }, spec: { devices: { requests: [req()] } } } })),
  update('template update: spec', templatesIn, tmpl(), { spec: { spec: { devices: { requests: [req({ name: 'other' })] } } } }),
];

// --- ResourceSlice --------------------------------------------------------------------------
const slice = (spec: Obj = {}) => (n: string): Obj =>
  ({ metadata: { name: n }, spec: { driver: 'gpu.example.com', pool: { name: 'pool', resourceSliceCount: 1, generation: 0 }, nodeName: 'node-1', ...spec } });
const sliceCase = (name: string, spec: Obj): ValidationCase => create(`slice: ${name}`, fixed(SLICES), slice(spec));
const dev = (extra: Obj = {}): Obj => ({ name: 'dev-0', ...extra });

const SLICE: ValidationCase[] = [
  sliceCase('valid', { devices: [dev({ attributes: { model: { string: 'a100' }, 'gpu.example.com/index': { int: 0 }, ok: { bool: true }, v: { version: '1.0.0' } },
    capacity: { memory: { value: '40Gi' } } })] }),
  sliceCase('valid allNodes', { nodeName: undefined, allNodes: true }),
  create('slice: name invalid', fixed(SLICES), () => slice()('Bad_Slice')),
  sliceCase('driver empty', { driver: '' }),
  sliceCase('driver invalid', { driver: 'Bad_Driver' }),
  sliceCase('pool name empty', { pool: { name: '', resourceSliceCount: 1 } }),
  sliceCase('pool name invalid', { pool: { name: 'Bad_Pool', resourceSliceCount: 1 } }),
  sliceCase('pool resourceSliceCount zero', { pool: { name: 'pool', resourceSliceCount: 0 } }),
  sliceCase('pool generation negative', { pool: { name: 'pool', resourceSliceCount: 1, generation: -1 } }),
  sliceCase('no node field', { nodeName: undefined }),
  sliceCase('nodeName and allNodes', { allNodes: true }),
  sliceCase('nodeName invalid', { nodeName: 'Bad_Node' }),
  sliceCase('allNodes false', { nodeName: undefined, allNodes: false }),
  sliceCase('nodeSelector two terms', { nodeName: undefined, nodeSelector: { nodeSelectorTerms: [
    { matchExpressions: [{ key: 'a', operator: 'Exists' }] }, { matchExpressions: [{ key: 'b', operator: 'Exists' }] }] } }),
  sliceCase('nodeSelector operator Bogus', { nodeName: undefined, nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }] } }),
  sliceCase('device name empty', { devices: [dev({ name: '' })] }),
  sliceCase('device name invalid', { devices: [dev({ name: 'Bad_Device' })] }),
  sliceCase('device names duplicate', { devices: [dev(), dev()] }),
  sliceCase('attribute without value', { devices: [dev({ attributes: { model: {} } })] }),
  sliceCase('attribute two values', { devices: [dev({ attributes: { model: { string: 'a', int: 1 } } })] }),
  sliceCase('attribute name invalid', { devices: [dev({ attributes: { 'bad name': { string: 'a' } } })] }),
  sliceCase('attribute version invalid', { devices: [dev({ attributes: { v: { version: 'one' } } })] }),
  sliceCase('attribute string too long', { devices: [dev({ attributes: { s: { string: 'x'.repeat(65) } } })] }),
  sliceCase('capacity name invalid', { devices: [dev({ capacity: { 'bad name': { value: '1' } } })] }),
  sliceCase('device nodeName without perDeviceNodeSelection', { devices: [dev({ nodeName: 'node-1' })] }),
  sliceCase('perDeviceNodeSelection device without node', { nodeName: undefined, perDeviceNodeSelection: true, devices: [dev()] }),
  sliceCase('taint effect Bogus', { devices: [dev({ taints: [{ key: 'k', effect: 'Bogus' }] })] }),
  sliceCase('sharedCounters and devices', { sharedCounters: [{ name: 'c', counters: { mem: { value: '1' } } }], devices: [dev()] }),
  sliceCase('perDeviceNodeSelection device with two node fields', { nodeName: undefined, perDeviceNodeSelection: true, devices: [dev({ nodeName: 'n', allNodes: true })] }),
  sliceCase('perDeviceNodeSelection valid', { nodeName: undefined, perDeviceNodeSelection: true, devices: [dev({ nodeName: 'node-1' })] }),
  sliceCase('attribute ints empty', { devices: [dev({ attributes: { i: { ints: [] } } })] }),
  sliceCase('attribute domain invalid', { devices: [dev({ attributes: { 'Bad_Domain/model': { string: 'a' } } })] }),
  sliceCase('taint key invalid', { devices: [dev({ taints: [{ key: 'bad key', effect: 'NoSchedule' }] })] }),
  sliceCase('taint effect missing', { devices: [dev({ taints: [{ key: 'k' }] })] }),
  sliceCase('129 devices', { devices: Array.from({ length: 129 }, (_, i) => dev({ name: `d${i}` })) }),
  sliceCase('sharedCounters name invalid and no counters', { sharedCounters: [{ name: 'Bad_Name', counters: {} }] }),
  sliceCase('sharedCounters valid', { sharedCounters: [{ name: 'mem', counters: { memory: { value: '1Gi' } } }] }),
  sliceCase('nodeName empty', { nodeName: '', allNodes: true }),
  update('slice update: driver', fixed(SLICES), slice(), { spec: { driver: 'other.example.com' } }),
  update('slice update: pool name', fixed(SLICES), slice(), { spec: { pool: { name: 'other' } } }),
  update('slice update: nodeName', fixed(SLICES), slice(), { spec: { nodeName: 'node-2' } }),
  update('slice update: devices allowed', fixed(SLICES), slice(), { spec: { devices: [dev()] } }),
];

export const RESOURCE_CASES: readonly ValidationCase[] = [...DEVICE_CLASS, ...CLAIM, ...TEMPLATE, ...SLICE];
