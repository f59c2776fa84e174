// The invalid Endpoints and EndpointSlice corpus: one object per rule of kube's ValidateEndpoints
// (pkg/apis/core/validation) and ValidateEndpointSlice (pkg/apis/discovery/validation), each a
// valid object with one fault. Sent to kapi and the reference kube-apiserver by
// e2e/service-validation.test.ts.

export interface EndpointsCase {
  readonly name: string;
  readonly kind: 'Endpoints' | 'EndpointSlice';
  /** Merged over the valid base object. */
  readonly fields: Record<string, unknown>;
}

const subset = (s: Record<string, unknown>): Record<string, unknown> =>
  ({ subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }], ...s }] });
const addr = (a: Record<string, unknown>): Record<string, unknown> => subset({ addresses: [{ ip: '10.1.2.3', ...a }] });
const ep = (e: Record<string, unknown>): Record<string, unknown> => ({ endpoints: [{ addresses: ['10.1.2.3'], ...e }] });

export const ENDPOINTS_CASES: readonly EndpointsCase[] = [
  { name: 'endpoints name invalid', kind: 'Endpoints', fields: { metadata: { name: 'Bad_Name' } } },
  { name: 'subset without addresses', kind: 'Endpoints', fields: subset({ addresses: [] }) },
  { name: 'address IP invalid', kind: 'Endpoints', fields: addr({ ip: 'bogus' }) },
  { name: 'address IP with leading zeros', kind: 'Endpoints', fields: addr({ ip: '10.1.2.03' }) },
  { name: 'address IP loopback', kind: 'Endpoints', fields: addr({ ip: '127.0.0.1' }) },
  { name: 'address IP unspecified', kind: 'Endpoints', fields: addr({ ip: '::' }) },
  { name: 'address IP link-local', kind: 'Endpoints', fields: addr({ ip: '169.254.0.9' }) },
  { name: 'address IP link-local multicast', kind: 'Endpoints', fields: addr({ ip: 'ff02::1' }) },
  { name: 'address hostname invalid', kind: 'Endpoints', fields: addr({ hostname: 'Bad_Host' }) },
  { name: 'address nodeName invalid', kind: 'Endpoints', fields: addr({ nodeName: 'Bad_Node' }) },
  { name: 'notReadyAddress IP invalid', kind: 'Endpoints', fields: subset({ addresses: [], notReadyAddresses: [{ ip: 'bogus' }] }) },
  { name: 'two ports, one unnamed', kind: 'Endpoints', fields: subset({ ports: [{ name: 'a', port: 80 }, { port: 81 }] }) },
  { name: 'port name invalid', kind: 'Endpoints', fields: subset({ ports: [{ name: 'Bad_Name', port: 80 }] }) },
  { name: 'port 0', kind: 'Endpoints', fields: subset({ ports: [{ port: 0 }] }) },
  { name: 'port protocol Bogus', kind: 'Endpoints', fields: subset({ ports: [{ port: 80, protocol: 'Bogus' }] }) },
  { name: 'port appProtocol invalid', kind: 'Endpoints', fields: subset({ ports: [{ port: 80, appProtocol: 'bad proto' }] }) },
  // EndpointSlice
  { name: 'slice name invalid', kind: 'EndpointSlice', fields: { metadata: { name: 'Bad_Name' } } },
  { name: 'addressType Bogus', kind: 'EndpointSlice', fields: { addressType: 'Bogus' } },
  { name: 'addressType IP (deprecated) on create', kind: 'EndpointSlice', fields: { addressType: 'IP' } },
  { name: 'endpoint without addresses', kind: 'EndpointSlice', fields: ep({ addresses: [] }) },
  { name: 'IPv4 address invalid', kind: 'EndpointSlice', fields: ep({ addresses: ['bogus'] }) },
  { name: 'IPv4 address an IPv6 one', kind: 'EndpointSlice', fields: ep({ addresses: ['2001:db8::1'] }) },
  { name: 'IPv4 address with leading zeros', kind: 'EndpointSlice', fields: ep({ addresses: ['10.1.2.03'] }) },
  { name: 'IPv4 address loopback', kind: 'EndpointSlice', fields: ep({ addresses: ['127.0.0.1'] }) },
  { name: 'IPv6 address an IPv4 one', kind: 'EndpointSlice', fields: { addressType: 'IPv6', ...ep({ addresses: ['10.1.2.3'] }) } },
  { name: 'FQDN address with one label', kind: 'EndpointSlice', fields: { addressType: 'FQDN', ...ep({ addresses: ['host'] }) } },
  { name: 'FQDN address invalid', kind: 'EndpointSlice', fields: { addressType: 'FQDN', ...ep({ addresses: ['bad_host.example.com'] }) } },
  { name: 'endpoint hostname invalid', kind: 'EndpointSlice', fields: ep({ hostname: 'Bad_Host' }) },
  { name: 'endpoint nodeName invalid', kind: 'EndpointSlice', fields: ep({ nodeName: 'Bad_Node' }) },
  { name: 'endpoint zone invalid', kind: 'EndpointSlice', fields: ep({ zone: 'bad zone' }) },
  { name: 'deprecatedTopology key invalid', kind: 'EndpointSlice', fields: ep({ deprecatedTopology: { 'bad key': 'v' } }) },
  { name: 'hints forZones name invalid', kind: 'EndpointSlice', fields: ep({ hints: { forZones: [{ name: 'bad zone' }] } }) },
  { name: 'hints forNodes name invalid', kind: 'EndpointSlice', fields: ep({ hints: { forNodes: [{ name: 'Bad_Node' }] } }) },
  { name: 'hints forZones duplicate', kind: 'EndpointSlice', fields: ep({ hints: { forZones: [{ name: 'a' }, { name: 'a' }] } }) },
  { name: 'slice port name invalid', kind: 'EndpointSlice', fields: { ports: [{ name: 'Bad_Name', port: 80 }] } },
  { name: 'slice port names duplicate', kind: 'EndpointSlice', fields: { ports: [{ name: 'a', port: 80 }, { name: 'a', port: 81 }] } },
  { name: 'slice port protocol Bogus', kind: 'EndpointSlice', fields: { ports: [{ name: 'a', port: 80, protocol: 'Bogus' }] } },
  { name: 'slice port 70000', kind: 'EndpointSlice', fields: { ports: [{ name: 'a', port: 70000 }] } },
  { name: 'slice port appProtocol invalid', kind: 'EndpointSlice', fields: { ports: [{ name: 'a', port: 80, appProtocol: 'bad proto' }] } },
];

/** A valid object of the kind, created, changed by `mutate` and PUT back (dry run). */
export interface EndpointsUpdateCase {
  readonly name: string;
  readonly kind: 'Endpoints' | 'EndpointSlice';
  readonly mutate: (obj: Record<string, unknown>) => void;
}

export const ENDPOINTS_UPDATE_CASES: readonly EndpointsUpdateCase[] = [
  { name: 'endpoints address made loopback', kind: 'Endpoints', mutate: (o) => { Object.assign(o, addr({ ip: '127.0.0.1' })); } },
  { name: 'endpoints subsets emptied of addresses', kind: 'Endpoints', mutate: (o) => { Object.assign(o, subset({ addresses: [] })); } },
  { name: 'slice addressType changed', kind: 'EndpointSlice', mutate: (o) => { o['addressType'] = 'FQDN'; o['endpoints'] = [{ addresses: ['a.example.com'] }]; } },
  { name: 'slice addressType changed to IP', kind: 'EndpointSlice', mutate: (o) => { o['addressType'] = 'IP'; } },
  { name: 'slice address made invalid', kind: 'EndpointSlice', mutate: (o) => { Object.assign(o, ep({ addresses: ['10.1.2.03'] })); } },
];

/** The object of a case and where it is POSTed (dry run). */
export function endpointsOfCase(c: Pick<EndpointsCase, 'kind'> & { fields?: Record<string, unknown> }, name: string, namespace: string): { path: string; body: Record<string, unknown> } {
  const fields = c.fields ?? {};
  const meta = (fields['metadata'] ?? {}) as Record<string, unknown>;
  if (c.kind === 'Endpoints') {
    return { path: `/api/v1/namespaces/${namespace}/endpoints?dryRun=All`,
      body: { apiVersion: 'v1', kind: 'Endpoints', ...subset({}), ...fields, metadata: { name, ...meta } } };
  }
  return { path: `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices?dryRun=All`,
    body: { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', addressType: 'IPv4', ...ep({}), ports: [{ name: 'a', port: 80 }], ...fields, metadata: { name, ...meta } } };
}
