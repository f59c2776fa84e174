// The cluster-configuration corpus: one case per rule of kube's validation of
// certificates.k8s.io CertificateSigningRequest (create, /status, /approval), coordination.k8s.io
// Lease, flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration (with the
// mandatory objects), core/v1 and events.k8s.io/v1 Event (create and update), plus probes of the
// beta and alpha resources of these groups, which kube v1.36 does not serve by default.
// Rules it covers: pkg/apis/certificates/validation, pkg/apis/coordination/validation,
// pkg/apis/flowcontrol/validation, pkg/apis/core/validation/events.go.
import type { RawRequest } from './https-client.ts';
import { patch, post, putBack, type ValidationCase } from './validation-differential.ts';

type Obj = Record<string, unknown>;
const DRY = '?dryRun=All';

/** A P-256 PKCS#10 request for CN=alice and a self-signed CA certificate (openssl, base64 of the PEM). */
const CSR_PEM = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlISk1ISUNBUUF3RURFT01Bd0dBMVVFQXd3RllXeHBZMlV3V1RBVEJnY3Foa2pPUFFJQkJnZ3Foa2pPUFFNQgpCd05DQUFReldvenRDUTdQdVpBNjdRUFpiaTV0WjV4bTRJUkRlNUZndXlFc0VibExNTTVrYnBXWUhMUmRuRkl0Ck1tSGJQQ0hGMy9oNmJhb3pJWUdmUDFxUzJzMjlvQUF3Q2dZSUtvWkl6ajBFQXdJRFJ3QXdSQUlnWlFxMC9HYmUKVkh6L3ZDNHY4VFBQRlVyOUtTK2p4emtYS3lZN2dtQm1LckVDSUJCdUNlYVhuNzdQV2xrOHNtVXF3MHI0NDdJNgoxSHBwb1JERnBTb1VrS2lOCi0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=';
const CERT_PEM = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJjVENDQVJlZ0F3SUJBZ0lVRWMyWmhLNi9UcndvM0MvWE45S09yeXgycTJBd0NnWUlLb1pJemowRUF3SXcKRFRFTE1Ba0dBMVVFQXd3Q1kyRXdJQmNOTWpZeE1USTFNRFEwTVRVNFdoZ1BNakV5TmpFeE1ERXdORFF4TlRoYQpNQTB4Q3pBSkJnTlZCQU1NQW1OaE1Ga3dFd1lIS29aSXpqMENBUVlJS29aSXpqMERBUWNEUWdBRU0xcU03UWtPCno3bVFPdTBEMlc0dWJXZWNadUNFUTN1UllMc2hMQkc1U3pET1pHNlZtQnkwWFp4U0xUSmgyendoeGQvNGVtMnEKTXlHQm56OWFrdHJOdmFOVE1GRXdIUVlEVlIwT0JCWUVGT3R0UWZnWXJTTzVKbUIxN1IvMnBuamhiYnIrTUI4RwpBMVVkSXdRWU1CYUFGT3R0UWZnWXJTTzVKbUIxN1IvMnBuamhiYnIrTUE4R0ExVWRFd0VCL3dRRk1BTUJBZjh3CkNnWUlLb1pJemowRUF3SURTQUF3UlFJZ1JMVitwc0x6UDJFNnRpWnNBRHYzMTVncEVGTDNiNkJzaUpjenl1OGIKdDUwQ0lRQ3FubjFjV2U1eUNnekc4L1dySVNBVGRSMHQxdENZY1RvSHR5dFV5TUo3Rnc9PQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==';

const CSR = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const csr = (name: string, spec: Obj = {}): Obj => ({
  apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: CSR_PEM, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
});
const csrCase = (name: string, spec: Obj): ValidationCase =>
  ({ name: `CertificateSigningRequest: ${name}`, requests: (n) => [post(`${CSR}${DRY}`, csr(n, spec))] });
const cond = (type: string, over: Obj = {}): Obj => ({ type, status: 'True', reason: 'R', message: 'm', ...over });
/** Creates a CSR (with `before` written through /approval first, if given) and writes `status` through `sub`. */
const csrStatus = (name: string, sub: 'status' | 'approval', status: Obj, before?: Obj): ValidationCase => ({
  name: `CertificateSigningRequest ${sub}: ${name}`,
  requests: (n) => [
    post(CSR, csr(n)),
    ...(before === undefined ? [] : [patch(`${CSR}/${n}/approval`, { status: before })]),
    patch(`${CSR}/${n}/${sub}${DRY}`, { status }),
  ],
});

const CSR_CASES: readonly ValidationCase[] = [
  csrCase('valid', {}),
  csrCase('valid with every usage kind and expiration', { usages: ['digital signature', 'key encipherment', 'server auth'], expirationSeconds: 600 }),
  csrCase('request missing', { request: undefined }),
  csrCase('request not PEM', { request: Buffer.from('hello').toString('base64') }),
  csrCase('request a certificate, not a CSR', { request: CERT_PEM }),
  csrCase('usages empty', { usages: [] }),
  csrCase('usage Bogus', { usages: ['Bogus'] }),
  csrCase('usage duplicate', { usages: ['client auth', 'client auth'] }),
  csrCase('signerName missing', { signerName: undefined }),
  csrCase('signerName legacy-unknown', { signerName: 'kubernetes.io/legacy-unknown' }),
  csrCase('signerName without a path', { signerName: 'example.com' }),
  csrCase('signerName domain invalid', { signerName: 'Bad_Domain/signer' }),
  csrCase('signerName path too long', { signerName: `example.com/${'a'.repeat(600)}` }),
  csrCase('signerName with two slashes', { signerName: 'example.com/a/b' }),
  csrCase('expirationSeconds 599', { expirationSeconds: 599 }),
  {
    name: 'CertificateSigningRequest: metadata name with a slash',
    requests: () => [post(`${CSR}${DRY}`, csr('a/b'))],
  },
  csrStatus('valid certificate on an approved request', 'status', { certificate: CERT_PEM, conditions: [cond('Approved')] }, { conditions: [cond('Approved')] }),
  csrStatus('certificate not PEM', 'status', { certificate: Buffer.from('junk').toString('base64'), conditions: [cond('Approved')] }, { conditions: [cond('Approved')] }),
  csrStatus('certificate on an unapproved request', 'status', { certificate: CERT_PEM }),
  {
    name: 'CertificateSigningRequest status: certificate replaced',
    requests: (n) => [
      post(CSR, csr(n)), patch(`${CSR}/${n}/approval`, { status: { conditions: [cond('Approved')] } }),
      patch(`${CSR}/${n}/status`, { status: { certificate: CERT_PEM } }),
      patch(`${CSR}/${n}/status${DRY}`, { status: { certificate: Buffer.from('x').toString('base64') } }),
    ],
  },
  csrStatus('add Approved through status', 'status', { conditions: [cond('Approved')] }),
  csrStatus('add Failed through status', 'status', { conditions: [cond('Failed')] }),
  csrStatus('condition type empty', 'status', { conditions: [cond('')] }),
  csrStatus('condition status Bogus', 'status', { conditions: [cond('Custom', { status: 'Bogus' })] }),
  csrStatus('Failed condition False', 'status', { conditions: [cond('Failed', { status: 'False' })] }),
  csrStatus('duplicate custom condition', 'status', { conditions: [cond('Custom'), cond('Custom')] }),
  csrStatus('approve', 'approval', { conditions: [cond('Approved')] }),
  csrStatus('approve with status False', 'approval', { conditions: [cond('Approved', { status: 'False' })] }),
  csrStatus('approve and deny', 'approval', { conditions: [cond('Approved'), cond('Denied')] }),
  csrStatus('approve twice', 'approval', { conditions: [cond('Approved'), cond('Approved')] }),
  csrStatus('set certificate through approval', 'approval', { certificate: CERT_PEM, conditions: [cond('Approved')] }),
  csrStatus('remove Approved', 'approval', { conditions: [] }, { conditions: [cond('Approved')] }),
  csrStatus('change Approved', 'approval', { conditions: [cond('Approved', { message: 'other' })] }, { conditions: [cond('Approved')] }),
  csrStatus('deny after approve', 'approval', { conditions: [cond('Approved'), cond('Denied')] }, { conditions: [cond('Approved')] }),
  {
    name: 'CertificateSigningRequest update: spec change is ignored',
    requests: (n) => [post(CSR, csr(n)), patch(`${CSR}/${n}${DRY}`, { spec: { usages: ['Bogus'] } })],
  },
];

const LEASES = (ns: string): string => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
const lease = (name: string, spec: Obj): Obj => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec });
const leaseCase = (name: string, spec: Obj): ValidationCase =>
  ({ name: `Lease: ${name}`, requests: (n, ns) => [post(`${LEASES(ns)}${DRY}`, lease(n, spec))] });

const LEASE_CASES: readonly ValidationCase[] = [
  leaseCase('valid', { holderIdentity: 'me', leaseDurationSeconds: 15, leaseTransitions: 0, renewTime: '2024-01-01T00:00:00.000000Z' }),
  leaseCase('valid with strategy and preferredHolder', { strategy: 'OldestEmulationVersion', preferredHolder: 'a' }),
  leaseCase('valid custom strategy', { strategy: 'example.com/mine' }),
  leaseCase('leaseDurationSeconds 0', { leaseDurationSeconds: 0 }),
  leaseCase('leaseTransitions -1', { leaseTransitions: -1 }),
  leaseCase('strategy Bogus', { strategy: 'Bogus' }),
  leaseCase('strategy with an invalid prefix', { strategy: 'Bad_Prefix/x' }),
  leaseCase('preferredHolder without strategy', { preferredHolder: 'a' }),
  { name: 'Lease: name invalid', requests: (_n, ns) => [post(`${LEASES(ns)}${DRY}`, lease('Bad_Name', {}))] },
  {
    name: 'Lease update: leaseDurationSeconds -1',
    requests: (n, ns) => [post(LEASES(ns), lease(n, {})), patch(`${LEASES(ns)}/${n}${DRY}`, { spec: { leaseDurationSeconds: -1 } })],
  },
];

const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
const rule = (over: Obj = {}): Obj => ({ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'], ...over });
const user = { kind: 'User', user: { name: 'alice' } };
const fs = (name: string, over: Obj = {}, rules?: readonly Obj[]): Obj => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name },
  spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 500, rules: rules ?? [{ subjects: [user], resourceRules: [rule()] }], ...over },
});
const fsCase = (name: string, over: Obj, rules?: readonly Obj[]): ValidationCase =>
  ({ name: `FlowSchema: ${name}`, requests: (n) => [post(`${FC}/flowschemas${DRY}`, fs(n, over, rules))] });
const subjects = (...s: readonly Obj[]): Obj[] => [{ subjects: s, resourceRules: [rule()] }];
const resRule = (over: Obj): Obj[] => [{ subjects: [user], resourceRules: [rule(over)] }];
const nonRes = (over: Obj): Obj[] => [{ subjects: [user], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'], ...over }] }];

const FLOWSCHEMA_CASES: readonly ValidationCase[] = [
  fsCase('valid', { distinguisherMethod: { type: 'ByUser' } }),
  fsCase('valid non-resource rule and service account', {}, [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: 'sa', namespace: 'ns' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/metrics', '/api/*'] }] }]),
  fsCase('valid wildcard service account and URL forms', {}, [{
    subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: '*', namespace: 'ns' } }, { kind: 'Group', group: { name: 'g' } }],
    nonResourceRules: [{ verbs: ['get', 'list'], nonResourceURLs: ['/', '/a/*', '/healthz'] }],
  }]),
  fsCase('matchingPrecedence 0', { matchingPrecedence: 0 }),
  fsCase('matchingPrecedence 10001', { matchingPrecedence: 10001 }),
  fsCase('matchingPrecedence 1', { matchingPrecedence: 1 }),
  fsCase('distinguisherMethod Bogus', { distinguisherMethod: { type: 'Bogus' } }),
  fsCase('priorityLevelConfiguration name empty', { priorityLevelConfiguration: { name: '' } }),
  fsCase('priorityLevelConfiguration name invalid', { priorityLevelConfiguration: { name: 'a/b' } }),
  fsCase('rule without subjects', {}, [{ subjects: [], resourceRules: [rule()] }]),
  fsCase('rule without resource or non-resource rules', {}, [{ subjects: [user] }]),
  fsCase('subject kind Bogus', {}, subjects({ kind: 'Bogus' })),
  fsCase('User subject without user', {}, subjects({ kind: 'User' })),
  fsCase('User subject name empty', {}, subjects({ kind: 'User', user: { name: '' } })),
  fsCase('User subject with group', {}, subjects({ kind: 'User', user: { name: 'a' }, group: { name: 'g' } })),
  fsCase('Group subject without group', {}, subjects({ kind: 'Group' })),
  fsCase('Group subject with serviceAccount', {}, subjects({ kind: 'Group', group: { name: 'g' }, serviceAccount: { name: 'sa', namespace: 'ns' } })),
  fsCase('ServiceAccount subject without serviceAccount', {}, subjects({ kind: 'ServiceAccount' })),
  fsCase('ServiceAccount subject name and namespace missing', {}, subjects({ kind: 'ServiceAccount', serviceAccount: {} })),
  fsCase('ServiceAccount subject name invalid', {}, subjects({ kind: 'ServiceAccount', serviceAccount: { name: 'Bad_Name', namespace: 'Bad_NS' } })),
  fsCase('ServiceAccount subject with user', {}, subjects({ kind: 'ServiceAccount', serviceAccount: { name: 'sa', namespace: 'ns' }, user: { name: 'u' } })),
  fsCase('resource rule without verbs', {}, resRule({ verbs: [] })),
  fsCase('resource rule verbs * with others', {}, resRule({ verbs: ['*', 'get'] })),
  fsCase('resource rule verb Bogus', {}, resRule({ verbs: ['Bogus'] })),
  fsCase('resource rule without apiGroups', {}, resRule({ apiGroups: [] })),
  fsCase('resource rule apiGroups * with others', {}, resRule({ apiGroups: ['*', 'apps'] })),
  fsCase('resource rule without resources', {}, resRule({ resources: [] })),
  fsCase('resource rule resources * with others', {}, resRule({ resources: ['*', 'pods'] })),
  fsCase('resource rule without namespaces', {}, resRule({ namespaces: [] })),
  fsCase('resource rule namespaces * with others', {}, resRule({ namespaces: ['*', 'a'] })),
  fsCase('resource rule namespace invalid', {}, resRule({ namespaces: ['Bad_NS'] })),
  fsCase('resource rule cluster scope without namespaces (valid)', {}, resRule({ namespaces: [], clusterScope: true })),
  fsCase('non-resource rule without verbs', {}, nonRes({ verbs: [] })),
  fsCase('non-resource rule verb Bogus', {}, nonRes({ verbs: ['Bogus'] })),
  fsCase('non-resource rule without URLs', {}, nonRes({ nonResourceURLs: [] })),
  fsCase('non-resource rule URLs * with others', {}, nonRes({ nonResourceURLs: ['*', '/healthz'] })),
  fsCase('non-resource URL empty', {}, nonRes({ nonResourceURLs: [''] })),
  fsCase('non-resource URL without slash', {}, nonRes({ nonResourceURLs: ['healthz'] })),
  fsCase('non-resource URL with space', {}, nonRes({ nonResourceURLs: ['/a b'] })),
  fsCase('non-resource URL with double slash', {}, nonRes({ nonResourceURLs: ['/a//b'] })),
  fsCase('non-resource URL with inner wildcard', {}, nonRes({ nonResourceURLs: ['/a/*/b'] })),
  { name: 'FlowSchema: name invalid', requests: () => [post(`${FC}/flowschemas${DRY}`, fs('a/b'))] },
  // the mandatory schemas: a create fails validation before it meets the stored object
  { name: 'FlowSchema: mandatory catch-all with another spec', requests: () => [post(`${FC}/flowschemas${DRY}`, fs('catch-all', { matchingPrecedence: 9000 }))] },
  { name: 'FlowSchema: mandatory exempt with another spec', requests: () => [post(`${FC}/flowschemas${DRY}`, fs('exempt', { matchingPrecedence: 1 }))] },
  {
    name: 'FlowSchema status: duplicate and empty condition types',
    requests: (n) => [post(`${FC}/flowschemas`, fs(n)), patch(`${FC}/flowschemas/${n}/status${DRY}`, { status: { conditions: [{ type: 'A', status: 'True' }, { type: 'A', status: 'True' }, { type: '', status: 'True' }] } })],
  },
];

const plc = (name: string, spec: Obj): Obj => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name }, spec });
const limited = (over: Obj = {}, lr: Obj = { type: 'Reject' }): Obj => ({ type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: lr, ...over } });
const queue = (q: Obj): Obj => ({ type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50, ...q } });
const plcCase = (name: string, spec: Obj): ValidationCase =>
  ({ name: `PriorityLevelConfiguration: ${name}`, requests: (n) => [post(`${FC}/prioritylevelconfigurations${DRY}`, plc(n, spec))] });

const PLC_CASES: readonly ValidationCase[] = [
  plcCase('valid', limited({ lendablePercent: 50, borrowingLimitPercent: 10 }, queue({}))),
  plcCase('type empty', { type: '' }),
  plcCase('type Bogus', { type: 'Bogus' }),
  plcCase('Exempt on another name', { type: 'Exempt' }),
  plcCase('Limited without limited', { type: 'Limited' }),
  plcCase('Limited with exempt', { ...limited(), exempt: {} }),
  plcCase('nominalConcurrencyShares -1', limited({ nominalConcurrencyShares: -1 })),
  plcCase('lendablePercent 101', limited({ lendablePercent: 101 })),
  plcCase('borrowingLimitPercent -1', limited({ borrowingLimitPercent: -1 })),
  plcCase('limitResponse type empty', limited({}, { type: '' })),
  plcCase('limitResponse type Bogus', limited({}, { type: 'Bogus' })),
  plcCase('Queue without queuing', limited({}, { type: 'Queue' })),
  plcCase('Reject with queuing', limited({}, { type: 'Reject', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } })),
  plcCase('queueLengthLimit 0', limited({}, queue({ queueLengthLimit: 0 }))),
  plcCase('queues 0', limited({}, queue({ queues: 0 }))),
  plcCase('queues 513', limited({}, queue({ queues: 513 }))),
  plcCase('handSize 0', limited({}, queue({ handSize: 0 }))),
  plcCase('handSize above queues', limited({}, queue({ queues: 4, handSize: 5 }))),
  plcCase('handSize needs too much entropy', limited({}, queue({ queues: 512, handSize: 30 }))),
  { name: 'PriorityLevelConfiguration: name invalid', requests: () => [post(`${FC}/prioritylevelconfigurations${DRY}`, plc('a/b', limited()))] },
  {
    name: 'PriorityLevelConfiguration: v1beta3 round-trip annotation',
    requests: (n) => [post(`${FC}/prioritylevelconfigurations${DRY}`, { ...plc(n, limited()), metadata: { name: n, annotations: { 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares': '' } } })],
  },
  // the mandatory levels: a create fails validation before it meets the stored object
  { name: 'PriorityLevelConfiguration: mandatory catch-all with another spec', requests: () => [post(`${FC}/prioritylevelconfigurations${DRY}`, plc('catch-all', limited({ lendablePercent: 10 })))] },
  { name: 'PriorityLevelConfiguration: mandatory exempt as Limited', requests: () => [post(`${FC}/prioritylevelconfigurations${DRY}`, plc('exempt', limited()))] },
  {
    name: 'PriorityLevelConfiguration: mandatory exempt with a negative share',
    requests: () => [post(`${FC}/prioritylevelconfigurations${DRY}`, plc('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: -1, lendablePercent: 101 } }))],
  },
  {
    name: 'PriorityLevelConfiguration status: duplicate condition types',
    requests: (n) => [post(`${FC}/prioritylevelconfigurations`, plc(n, limited())), patch(`${FC}/prioritylevelconfigurations/${n}/status${DRY}`, { status: { conditions: [{ type: 'A', status: 'True' }, { type: 'A', status: 'True' }] } })],
  },
];

const CORE_EVENTS = (ns: string): string => `/api/v1/namespaces/${ns}/events`;
const EVENTS = (ns: string): string => `/apis/events.k8s.io/v1/namespaces/${ns}/events`;
const T = '2024-01-01T00:00:00.000000Z';
const coreEvent = (name: string, ns: string, over: Obj = {}): Obj => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'Pod', name: 'p', namespace: ns }, reason: 'Started', message: 'm', ...over,
});
const coreEventCase = (name: string, over: (ns: string) => Obj): ValidationCase =>
  ({ name: `core Event: ${name}`, requests: (n, ns) => [post(`${CORE_EVENTS(ns)}${DRY}`, coreEvent(n, ns, over(ns)))] });
const v1Event = (name: string, ns: string, over: Obj = {}): Obj => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name }, eventTime: T, reportingController: 'example.com/ctl', reportingInstance: 'i-1',
  action: 'Start', reason: 'Started', type: 'Normal', note: 'n', regarding: { kind: 'Pod', name: 'p', namespace: ns }, ...over,
});
const v1EventCase = (name: string, over: Obj): ValidationCase =>
  ({ name: `events.k8s.io Event: ${name}`, requests: (n, ns) => [post(`${EVENTS(ns)}${DRY}`, v1Event(n, ns, over))] });
const v1EventUpdate = (name: string, change: (o: Obj) => void): ValidationCase => ({
  name: `events.k8s.io Event update: ${name}`,
  requests: (n, ns) => [post(EVENTS(ns), v1Event(n, ns)), putBack(`${EVENTS(ns)}/${n}${DRY}`, change)],
});

const EVENT_CASES: readonly ValidationCase[] = [
  coreEventCase('valid', () => ({})),
  coreEventCase('valid with eventTime', (ns) => ({ eventTime: T, reportingComponent: 'example.com/ctl', reportingInstance: 'i', action: 'A', involvedObject: { kind: 'Pod', name: 'p', namespace: ns } })),
  coreEventCase('involvedObject in another namespace', () => ({ involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } })),
  coreEventCase('involvedObject namespace empty', () => ({ involvedObject: { kind: 'Pod', name: 'p' } })),
  coreEventCase('eventTime without reporting fields', (ns) => ({ eventTime: T, involvedObject: { kind: 'Pod', name: 'p', namespace: ns } })),
  coreEventCase('eventTime with reportingComponent invalid', (ns) => ({ eventTime: T, reportingComponent: 'bad name!', reportingInstance: 'i', action: 'A', involvedObject: { kind: 'Pod', name: 'p', namespace: ns } })),
  coreEventCase('eventTime with too long fields', (ns) => ({
    eventTime: T, reportingComponent: 'c', reportingInstance: 'i'.repeat(129), action: 'a'.repeat(129), reason: 'r'.repeat(129), message: 'm'.repeat(1025),
    involvedObject: { kind: 'Pod', name: 'p', namespace: ns },
  })),
  coreEventCase('eventTime without reason', (ns) => ({ eventTime: T, reportingComponent: 'c', reportingInstance: 'i', action: 'A', reason: '', involvedObject: { kind: 'Pod', name: 'p', namespace: ns } })),
  {
    name: 'core Event update: message changed (allowed through v1)',
    requests: (n, ns) => [post(CORE_EVENTS(ns), coreEvent(n, ns)), patch(`${CORE_EVENTS(ns)}/${n}${DRY}`, { message: 'other', count: 3 })],
  },
  v1EventCase('valid', {}),
  v1EventCase('valid with series', { series: { count: 2, lastObservedTime: T } }),
  v1EventCase('eventTime missing', { eventTime: undefined }),
  v1EventCase('type Bogus', { type: 'Bogus' }),
  v1EventCase('reportingController missing', { reportingController: undefined }),
  v1EventCase('reportingController invalid', { reportingController: 'bad name!' }),
  v1EventCase('reportingInstance missing', { reportingInstance: undefined }),
  v1EventCase('reportingInstance too long', { reportingInstance: 'i'.repeat(129) }),
  v1EventCase('action missing', { action: undefined }),
  v1EventCase('action too long', { action: 'a'.repeat(129) }),
  v1EventCase('reason missing', { reason: undefined }),
  v1EventCase('reason too long', { reason: 'r'.repeat(129) }),
  v1EventCase('note too long', { note: 'n'.repeat(1025) }),
  v1EventCase('series count 1', { series: { count: 1, lastObservedTime: T } }),
  v1EventCase('series without lastObservedTime', { series: { count: 2 } }),
  v1EventCase('regarding without namespace', { regarding: { kind: 'Pod', name: 'p' } }),
  v1EventCase('deprecated fields set', { deprecatedCount: 2, deprecatedFirstTimestamp: '2024-01-01T00:00:00Z', deprecatedLastTimestamp: '2024-01-01T00:00:00Z', deprecatedSource: { component: 'c' } }),
  v1EventCase('name invalid', { metadata: { name: 'Bad_Name' } }),
  v1EventUpdate('unchanged', () => undefined),
  v1EventUpdate('label added', (o) => { (o['metadata'] as Obj)['labels'] = { a: 'b' }; }),
  {
    name: 'events.k8s.io Event update: label added by merge patch',
    requests: (n, ns) => [post(EVENTS(ns), v1Event(n, ns)), patch(`${EVENTS(ns)}/${n}${DRY}`, { metadata: { labels: { a: 'b' } } })],
  },
  {
    name: 'events.k8s.io Event update: label added by strategic merge patch',
    requests: (n, ns) => [post(EVENTS(ns), v1Event(n, ns)), patch(`${EVENTS(ns)}/${n}${DRY}`, { metadata: { labels: { a: 'b' } } }, 'application/strategic-merge-patch+json')],
  },
  {
    name: 'events.k8s.io Event update: event without series and type, label added',
    requests: (n, ns) => [post(EVENTS(ns), v1Event(n, ns, { type: undefined, note: undefined })), patch(`${EVENTS(ns)}/${n}${DRY}`, { metadata: { labels: { a: 'b' } } })],
  },
  { name: 'events.k8s.io Event: get a missing one', requests: (n, ns) => [{ method: 'GET', path: `${EVENTS(ns)}/${n}` }] },
  { name: 'events.k8s.io Event: create twice', requests: (n, ns) => [post(EVENTS(ns), v1Event(n, ns)), post(EVENTS(ns), v1Event(n, ns))] },
  {
    name: 'events.k8s.io Event update: stale resourceVersion',
    requests: (n, ns) => [post(EVENTS(ns), v1Event(n, ns)), patch(`${EVENTS(ns)}/${n}`, { metadata: { resourceVersion: '1' } })],
  },
  v1EventUpdate('note changed', (o) => { o['note'] = 'other'; }),
  v1EventUpdate('reason changed', (o) => { o['reason'] = 'Other'; }),
  v1EventUpdate('type changed', (o) => { o['type'] = 'Warning'; }),
  v1EventUpdate('action and reportingController changed', (o) => { o['action'] = 'Other'; o['reportingController'] = 'example.com/other'; }),
  v1EventUpdate('regarding changed', (o) => { o['regarding'] = { ...(o['regarding'] as Obj), name: 'q' }; }),
  v1EventUpdate('related set', (o) => { o['related'] = { kind: 'Node', name: 'n' }; }),
  v1EventUpdate('deprecatedSource set', (o) => { o['deprecatedSource'] = { component: 'c' }; }),
  v1EventUpdate('series added', (o) => { o['series'] = { count: 2, lastObservedTime: T }; }),
  v1EventUpdate('series count 1 added', (o) => { o['series'] = { count: 1, lastObservedTime: T }; }),
];

/** Beta and alpha kinds of these groups: kube v1.36 serves none of them by default. */
const PROBES: readonly ValidationCase[] = [
  { name: 'probe: ClusterTrustBundle v1beta1 not served', requests: (n) => [post('/apis/certificates.k8s.io/v1beta1/clustertrustbundles?dryRun=All', { apiVersion: 'certificates.k8s.io/v1beta1', kind: 'ClusterTrustBundle', metadata: { name: n }, spec: { trustBundle: '' } })] },
  { name: 'probe: PodCertificateRequest v1beta1 not served', requests: (n, ns) => [post(`/apis/certificates.k8s.io/v1beta1/namespaces/${ns}/podcertificaterequests?dryRun=All`, { apiVersion: 'certificates.k8s.io/v1beta1', kind: 'PodCertificateRequest', metadata: { name: n }, spec: {} })] },
  { name: 'probe: LeaseCandidate v1beta1 not served', requests: (n, ns) => [post(`/apis/coordination.k8s.io/v1beta1/namespaces/${ns}/leasecandidates?dryRun=All`, { apiVersion: 'coordination.k8s.io/v1beta1', kind: 'LeaseCandidate', metadata: { name: n }, spec: {} })] },
  { name: 'probe: StorageVersion v1alpha1 not served', requests: (n) => [post('/apis/internal.apiserver.k8s.io/v1alpha1/storageversions?dryRun=All', { apiVersion: 'internal.apiserver.k8s.io/v1alpha1', kind: 'StorageVersion', metadata: { name: n }, spec: {} })] },
];

/** LocalSubjectAccessReview: the spec's namespace against the request's (issue 12). */
const lsar = (ns: string, meta: Obj, attrNs: string): RawRequest =>
  post(`/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`, {
    apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: meta,
    spec: { user: 'u', resourceAttributes: { namespace: attrNs, verb: 'get', resource: 'pods' } },
  });
const LSAR_CASES: readonly ValidationCase[] = [
  { name: 'LocalSubjectAccessReview: spec namespace matches', requests: (_n, ns) => [lsar(ns, {}, ns)] },
  { name: 'LocalSubjectAccessReview: spec namespace differs', requests: (_n, ns) => [lsar(ns, {}, 'other')] },
  { name: 'LocalSubjectAccessReview: metadata namespace differs', requests: (_n, ns) => [lsar(ns, { namespace: 'other' }, 'other')] },
  // what the answer carries: the namespace of the URL in metadata, the spec as sent, the status
  { name: 'LocalSubjectAccessReview: answer echoes the namespace', requests: (_n, ns) => [lsar(ns, { namespace: ns }, ns)],
    keep: (o) => ({ metadata: { ...(o['metadata'] as Obj), managedFields: undefined }, spec: o['spec'], status: o['status'] }) },
  { name: 'LocalSubjectAccessReview: spec namespace empty', requests: (_n, ns) => [lsar(ns, {}, '')] },
  { name: 'LocalSubjectAccessReview: metadata beyond the namespace', requests: (n, ns) => [lsar(ns, { name: n, labels: { b: '2', a: '1' } }, ns)] },
  { name: 'LocalSubjectAccessReview: nonResourceAttributes', requests: (_n, ns) => [
    post(`/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`, {
      apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } } })] },
  { name: 'LocalSubjectAccessReview: both attribute kinds', requests: (_n, ns) => [
    post(`/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`, {
      apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview',
      spec: { user: 'u', resourceAttributes: { namespace: ns, verb: 'get', resource: 'pods' }, nonResourceAttributes: { path: '/x' } } })] },
  { name: 'SubjectAccessReview: metadata not empty', requests: (n) => [
    post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: { name: n }, spec: { user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } } })] },
];

export const CLUSTER_CONFIG_CASES: readonly ValidationCase[] = [...CSR_CASES, ...LEASE_CASES, ...FLOWSCHEMA_CASES, ...PLC_CASES, ...EVENT_CASES, ...PROBES, ...LSAR_CASES];
