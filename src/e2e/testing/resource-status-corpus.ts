// ResourceClaim status updates of kube v1.36 beyond the basics of resource-validation-corpus.ts
// (validateResourceClaimStatusUpdate, validateDeviceStatus, validateNetworkDeviceData,
// validateAllocationResult in pkg/apis/resource/validation), and DRA admin access: a claim or
// template asking for adminAccess, or a status granting it, needs the namespace label
// `resource.kubernetes.io/admin-access: "true"` (AuthorizedForAdmin / AuthorizedForAdminStatus of
// pkg/registry/resource/utils.go, called by the strategies).
// No Go counterpart: the e2e test harness.
import { patch, post, type ValidationCase } from './validation-differential.ts';
import type { RawRequest } from './https-client.ts';

type Obj = Record<string, unknown>;
const GROUP = '/apis/resource.k8s.io/v1';
const claimsIn = (ns: string): string => `${GROUP}/namespaces/${ns}/resourceclaims`;
const templatesIn = (ns: string): string => `${GROUP}/namespaces/${ns}/resourceclaimtemplates`;

/** A namespace carrying the admin-access label. */
export const ADMIN_NAMESPACE = 'vdiff-dra-admin';
export const resourceStatusSetup = (): readonly RawRequest[] =>
  [post('/api/v1/namespaces', { metadata: { name: ADMIN_NAMESPACE, labels: { 'resource.kubernetes.io/admin-access': 'true' } } })];

const request = (extra: Obj = {}): Obj => ({ name: 'gpu', exactly: { deviceClassName: 'gpu', ...extra } });
const claim = (n: string, extra: Obj = {}): Obj => ({ metadata: { name: n }, spec: { devices: { requests: [request(extra)] } } });
const result = (extra: Obj = {}): Obj => ({ request: 'gpu', driver: 'gpu.example.com', pool: 'pool', device: 'dev-0', ...extra });
const allocation = (...results: Obj[]): Obj => ({ devices: { results } });
const device = (extra: Obj = {}): Obj => ({ driver: 'gpu.example.com', pool: 'pool', device: 'dev-0', ...extra });
const condition = (extra: Obj = {}): Obj => ({ type: 'Ready', status: 'True', reason: 'Ok', message: 'm', lastTransitionTime: '2024-01-01T00:00:00Z', ...extra });

/** Creates a claim (in `ns`, or the case's namespace), then patches its status. */
const statusCase = (name: string, status: Obj, opts: { ns?: string; claim?: Obj } = {}): ValidationCase => ({
  name: `claim status: ${name}`,
  requests: (n, caseNs) => {
    const ns = opts.ns ?? caseNs;
    return [post(claimsIn(ns), claim(n, opts.claim)), patch(`${claimsIn(ns)}/${n}/status`, { status })];
  },
});
const withDevice = (name: string, d: Obj): ValidationCase => statusCase(name, { allocation: allocation(result()), devices: [d] });

export const RESOURCE_STATUS_CASES: readonly ValidationCase[] = [
  // devices: each an allocated device, unique, with valid conditions, data and network data
  withDevice('device status with conditions and data', device({ conditions: [condition()], data: { a: 1 },
    networkData: { interfaceName: 'eth0', hardwareAddress: '00:00:5e:00:53:01', ips: ['10.1.2.3/24', '2001:db8::1/64'] } })),
  withDevice('device driver invalid', device({ driver: 'Bad_Driver' })),
  withDevice('device pool empty', device({ pool: '' })),
  withDevice('device name invalid', device({ device: 'Bad_Device' })),
  withDevice('device not allocated', device({ device: 'dev-9' })),
  withDevice('device shareID not allocated', device({ shareID: '123e4567-e89b-12d3-a456-426614174000' })),
  withDevice('device condition status Bogus', device({ conditions: [condition({ status: 'Bogus' })] })),
  withDevice('device conditions duplicate type', device({ conditions: [condition(), condition()] })),
  withDevice('device 9 conditions', device({ conditions: Array.from({ length: 9 }, (_, i) => condition({ type: `T${i}` })) })),
  withDevice('device data not an object', device({ data: [1] })),
  withDevice('device data too long', device({ data: { a: 'x'.repeat(10241) } })),
  withDevice('device interfaceName too long', device({ networkData: { interfaceName: 'i'.repeat(257) } })),
  withDevice('device hardwareAddress too long', device({ networkData: { hardwareAddress: 'h'.repeat(129) } })),
  withDevice('device ip without prefix', device({ networkData: { ips: ['10.1.2.3'] } })),
  withDevice('device ip invalid', device({ networkData: { ips: ['bogus/24'] } })),
  withDevice('device ips duplicate', device({ networkData: { ips: ['10.1.2.3/24', '10.1.2.3/24'] } })),
  withDevice('device 17 ips', device({ networkData: { ips: Array.from({ length: 17 }, (_, i) => `10.1.2.${i}/24`) } })),
  statusCase('devices duplicate', { allocation: allocation(result()), devices: [device(), device()] }),
  // allocation
  statusCase('allocation with a node selector', { allocation: { ...allocation(result()),
    nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] }] } } }),
  statusCase('allocation node selector operator Bogus', { allocation: { ...allocation(result()),
    nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'Bogus' }] }] } } }),
  statusCase('allocation node selector without terms', { allocation: { ...allocation(result()), nodeSelector: { nodeSelectorTerms: [] } } }),
  statusCase('allocation result of a subrequest', { allocation: allocation(result({ request: 'gpu/sub' })) }),
  statusCase('allocation result request empty', { allocation: allocation(result({ request: '' })) }),
  statusCase('allocation result driver empty', { allocation: allocation(result({ driver: '' })) }),
  statusCase('allocation binding conditions', { allocation: allocation(result({ bindingConditions: ['Ready'], bindingFailureConditions: ['Failed'] })) }),
  statusCase('allocation binding conditions without failure conditions', { allocation: allocation(result({ bindingConditions: ['Ready'] })) }),
  statusCase('allocation binding condition invalid', { allocation: allocation(result({ bindingConditions: ['bad condition'], bindingFailureConditions: ['Failed'] })) }),
  statusCase('allocation 33 results', { allocation: allocation(...Array.from({ length: 33 }, (_, i) => result({ device: `dev-${i}` }))) }),
  statusCase('allocation config requests unknown', { allocation: { devices: { results: [result()],
    config: [{ source: 'FromClaim', requests: ['other'], opaque: { driver: 'gpu.example.com', parameters: {} } }] } } }),
  statusCase('allocation config requests duplicate', { allocation: { devices: { results: [result()],
    config: [{ source: 'FromClass', requests: ['gpu', 'gpu'], opaque: { driver: 'gpu.example.com', parameters: {} } }] } } }),
  statusCase('allocation config source missing', { allocation: { devices: { results: [result()],
    config: [{ opaque: { driver: 'gpu.example.com', parameters: {} } }] } } }),
  // reservedFor
  statusCase('reservedFor valid', { allocation: allocation(result()), reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] }),
  statusCase('reservedFor with apiGroup', { allocation: allocation(result()), reservedFor: [{ apiGroup: 'example.com', resource: 'things', name: 'p', uid: 'u1' }] }),
  statusCase('reservedFor 257 entries', { allocation: allocation(result()),
    reservedFor: Array.from({ length: 257 }, (_, i) => ({ resource: 'pods', name: `p${i}`, uid: `u${i}` })) }),
  // admin access: granted by a status only in a labelled namespace
  statusCase('adminAccess granted without the namespace label', { allocation: allocation(result({ adminAccess: true })) }, { claim: { adminAccess: false } }),
  statusCase('adminAccess granted in a labelled namespace', { allocation: allocation(result({ adminAccess: true })) }, { ns: ADMIN_NAMESPACE }),
  { name: 'claim: adminAccess without the namespace label', requests: (n, ns) => [post(claimsIn(ns), claim(n, { adminAccess: true }))] },
  { name: 'claim: adminAccess in a labelled namespace', requests: (n) => [post(claimsIn(ADMIN_NAMESPACE), claim(n, { adminAccess: true }))] },
  { name: 'claim: adminAccess false without the label', requests: (n, ns) => [post(claimsIn(ns), claim(n, { adminAccess: false }))] },
  { name: 'claim: adminAccess with other faults', requests: (n, ns) => [post(claimsIn(ns),
    { metadata: { name: n }, spec: { devices: { requests: [request({ adminAccess: true, deviceClassName: '' })] } } })] },
  { name: 'template: adminAccess without the namespace label', requests: (n, ns) => [post(templatesIn(ns),
    { metadata: { name: n }, spec: { spec: { devices: { requests: [request({ adminAccess: true })] } } } })] },
  { name: 'template: adminAccess in a labelled namespace', requests: (n) => [post(templatesIn(ADMIN_NAMESPACE),
    { metadata: { name: n }, spec: { spec: { devices: { requests: [request({ adminAccess: true })] } } } })] },
];
