// The invalid-Service corpus: one Service per rule of kube's service validation
// (pkg/apis/core/validation: ValidateServiceCreate → validateService and its helpers,
// ValidateServiceUpdate, ValidateServiceStatusUpdate), each a valid Service with one fault.
// Sent to kapi and the reference kube-apiserver by e2e/service-validation.test.ts.

export interface ServiceCase {
  readonly name: string;
  /** Merged over the valid base spec (a ClusterIP Service with one TCP port). */
  readonly spec?: Record<string, unknown>;
  readonly metadata?: Record<string, unknown>;
}

/** A case that creates a valid Service, changes it and PUTs it back (to the object or its status). */
export interface ServiceUpdateCase {
  readonly name: string;
  readonly spec?: Record<string, unknown>;
  readonly mutate: (svc: { metadata: { annotations?: Record<string, string> }; spec: Record<string, unknown>; status?: Record<string, unknown> }) => void;
  readonly subresource?: 'status';
}

const lb = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'LoadBalancer', ...extra });
const np = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'NodePort', ...extra });
const port = (p: Record<string, unknown>): Record<string, unknown> => ({ ports: [{ port: 80, ...p }] });
const twoPorts = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> =>
  ({ ports: [{ name: 'a', port: 80, ...a }, { name: 'b', port: 81, ...b }] });

export const SERVICE_CASES: readonly ServiceCase[] = [
  // metadata
  { name: 'name invalid', metadata: { name: 'Bad_Name' } },
  { name: 'name starting with a digit', metadata: { name: '1abc' } },
  { name: 'topology-mode annotation unlike topology-aware-hints', metadata: { annotations: { 'service.kubernetes.io/topology-mode': 'Auto', 'service.kubernetes.io/topology-aware-hints': 'Disabled' } } },
  // ports
  { name: 'no ports', spec: { ports: [] } },
  { name: 'port 0', spec: port({ port: 0 }) },
  { name: 'port missing (targetPort defaults to its 0)', spec: { ports: [{ protocol: 'TCP' }] } },
  { name: 'port missing, targetPort named', spec: { ports: [{ targetPort: 'http' }] } },
  { name: 'port 70000', spec: port({ port: 70000 }) },
  { name: 'port name invalid', spec: port({ name: 'Bad_Name' }) },
  { name: 'two ports, one unnamed', spec: { ports: [{ name: 'a', port: 80 }, { port: 81 }] } },
  { name: 'duplicate port names', spec: twoPorts({}, { name: 'a' }) },
  { name: 'protocol Bogus', spec: port({ protocol: 'Bogus' }) },
  { name: 'targetPort 0', spec: port({ targetPort: 0 }) },
  { name: 'targetPort 70000', spec: port({ targetPort: 70000 }) },
  { name: 'targetPort name invalid', spec: port({ targetPort: 'Bad_Name' }) },
  { name: 'targetPort name too long', spec: port({ targetPort: 'abcdefghijklmnopq' }) },
  { name: 'appProtocol invalid', spec: port({ appProtocol: 'bad proto' }) },
  { name: 'duplicate port and protocol', spec: twoPorts({}, { port: 80 }) },
  { name: 'nodePort on ClusterIP', spec: port({ nodePort: 30080 }) },
  { name: 'duplicate nodePort', spec: np(twoPorts({ nodePort: 30081 }, { nodePort: 30081 })) },
  { name: 'nodePort 70000', spec: np(port({ nodePort: 70000 })) },
  { name: 'NodePort port 10250', spec: np(port({ port: 10250 })) },
  // type
  { name: 'type Bogus', spec: { type: 'Bogus' } },
  { name: 'headless NodePort', spec: np({ clusterIP: 'None' }) },
  { name: 'headless LoadBalancer', spec: lb({ clusterIP: 'None' }) },
  { name: 'ExternalName without externalName', spec: { type: 'ExternalName', ports: [] } },
  { name: 'ExternalName invalid', spec: { type: 'ExternalName', externalName: 'bad_name' } },
  { name: 'ExternalName with clusterIP', spec: { type: 'ExternalName', externalName: 'example.com', clusterIP: '10.0.0.10' } },
  { name: 'ExternalName with ipFamilies', spec: { type: 'ExternalName', externalName: 'example.com', ipFamilies: ['IPv4'] } },
  { name: 'ExternalName with ipFamilyPolicy', spec: { type: 'ExternalName', externalName: 'example.com', ipFamilyPolicy: 'SingleStack' } },
  // selector
  { name: 'selector key invalid', spec: { selector: { 'bad key': 'v' } } },
  { name: 'selector value invalid', spec: { selector: { k: 'bad value' } } },
  // session affinity
  { name: 'sessionAffinity Bogus', spec: { sessionAffinity: 'Bogus' } },
  { name: 'ClientIP timeout 0', spec: { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } } },
  { name: 'ClientIP timeout over a day', spec: { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } } },
  { name: 'ClientIP config without clientIP', spec: { sessionAffinity: 'ClientIP', sessionAffinityConfig: {} } },
  { name: 'affinity None with config', spec: { sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } } } },
  // cluster IPs and families
  { name: 'clusterIP invalid', spec: { clusterIP: 'bogus' } },
  { name: 'clusterIP outside the range', spec: { clusterIP: '192.168.250.250' } },
  { name: 'clusterIPs unlike clusterIP', spec: { clusterIP: '10.0.0.20', clusterIPs: ['10.0.0.21'] } },
  { name: 'ipFamilies Bogus', spec: { ipFamilies: ['Bogus'] } },
  { name: 'ipFamilies duplicate', spec: { ipFamilies: ['IPv4', 'IPv4'], ipFamilyPolicy: 'PreferDualStack' } },
  { name: 'ipFamilyPolicy Bogus', spec: { ipFamilyPolicy: 'Bogus' } },
  { name: 'RequireDualStack on a single-stack cluster', spec: { ipFamilyPolicy: 'RequireDualStack' } },
  { name: 'SingleStack with two families', spec: { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] } },
  { name: 'IPv6 on an IPv4 cluster', spec: { ipFamilies: ['IPv6'] } },
  // externalIPs
  { name: 'externalIP invalid', spec: { externalIPs: ['bogus'] } },
  { name: 'externalIP with leading zeros', spec: { externalIPs: ['1.2.3.04'] } },
  { name: 'externalIP unspecified', spec: { externalIPs: ['0.0.0.0'] } },
  { name: 'externalIP loopback', spec: { externalIPs: ['127.0.0.1'] } },
  { name: 'externalIP link-local', spec: { externalIPs: ['169.254.1.1'] } },
  { name: 'externalIP link-local multicast', spec: { externalIPs: ['224.0.0.1'] } },
  // load balancer
  { name: 'loadBalancerSourceRanges on ClusterIP', spec: { loadBalancerSourceRanges: ['10.0.0.0/8'] } },
  { name: 'loadBalancerSourceRanges invalid', spec: lb({ loadBalancerSourceRanges: ['bogus'] }) },
  { name: 'loadBalancerSourceRanges with host bits', spec: lb({ loadBalancerSourceRanges: ['10.0.0.1/8'] }) },
  { name: 'source-ranges annotation invalid', spec: lb(), metadata: { annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8, bogus' } } },
  { name: 'source-ranges annotation on ClusterIP', metadata: { annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8' } } },
  { name: 'allocateLoadBalancerNodePorts on ClusterIP', spec: { allocateLoadBalancerNodePorts: true } },
  { name: 'loadBalancerClass on ClusterIP', spec: { loadBalancerClass: 'example.com/lb' } },
  { name: 'loadBalancerClass invalid', spec: lb({ loadBalancerClass: 'bad class' }) },
  { name: 'LoadBalancer port 10250', spec: lb(port({ port: 10250 })) },
  // traffic policies
  { name: 'externalTrafficPolicy on ClusterIP', spec: { externalTrafficPolicy: 'Local' } },
  { name: 'externalTrafficPolicy Bogus', spec: np({ externalTrafficPolicy: 'Bogus' }) },
  { name: 'healthCheckNodePort on NodePort', spec: np({ healthCheckNodePort: 30100 }) },
  { name: 'healthCheckNodePort 70000', spec: lb({ externalTrafficPolicy: 'Local', healthCheckNodePort: 70000 }) },
  { name: 'internalTrafficPolicy Bogus', spec: { internalTrafficPolicy: 'Bogus' } },
  { name: 'trafficDistribution Bogus', spec: { trafficDistribution: 'Bogus' } },
  // more of each rule's edges
  { name: 'name too long', metadata: { name: 'a'.repeat(64) } },
  { name: 'appProtocol prefix too long', spec: port({ appProtocol: `${'a'.repeat(254)}/h2c` }) },
  { name: 'same nodePort on TCP and UDP of different ports', spec: np(twoPorts({ nodePort: 30082 }, { nodePort: 30082, protocol: 'UDP' })) },
  { name: 'externalIP IPv4-mapped IPv6', spec: { externalIPs: ['::ffff:1.2.3.4'] } },
  { name: 'externalIP IPv6 loopback', spec: { externalIPs: ['::1'] } },
  { name: 'externalIP twice (valid)', spec: { externalIPs: ['1.2.3.4', '1.2.3.4'] } },
  { name: 'loadBalancerSourceRanges with leading zeros', spec: lb({ loadBalancerSourceRanges: ['010.0.0.0/8'] }) },
  { name: 'externalName too long', spec: { type: 'ExternalName', externalName: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}` } },
  { name: 'clusterIPs with two IPv4 addresses', spec: { clusterIPs: ['10.0.0.30', '10.0.0.31'] } },
  { name: 'clusterIPs duplicate', spec: { ipFamilyPolicy: 'PreferDualStack', clusterIPs: ['10.0.0.32', '10.0.0.32'] } },
  { name: 'clusterIP with leading zeros', spec: { clusterIP: '10.0.0.040' } },
  { name: 'clusterIP IPv4-mapped IPv6', spec: { clusterIP: '::ffff:10.0.0.41' } },
  { name: 'three ipFamilies', spec: { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4', 'IPv6', 'IPv4'] } },
  { name: 'secondary clusterIP invalid', spec: { ipFamilyPolicy: 'PreferDualStack', clusterIPs: ['10.0.0.42', 'bogus'] } },
  { name: 'clusterIP None with a family policy (valid)', spec: { clusterIP: 'None', ipFamilyPolicy: 'RequireDualStack' } },
  { name: 'PreferDualStack on a single-stack cluster (valid)', spec: { ipFamilyPolicy: 'PreferDualStack' } },
  { name: 'ClusterIP with externalIPs and Local policy (valid)', spec: { externalIPs: ['1.2.3.4'], externalTrafficPolicy: 'Local' } },
  { name: 'internalTrafficPolicy on ExternalName (valid)', spec: { type: 'ExternalName', externalName: 'example.com', internalTrafficPolicy: 'Local' } },
  { name: 'allocateLoadBalancerNodePorts false with nodePorts (valid)', spec: lb({ allocateLoadBalancerNodePorts: false, ...port({ nodePort: 30083 }) }) },
  { name: 'sessionAffinity ClientIP on headless (valid)', spec: { clusterIP: 'None', sessionAffinity: 'ClientIP' } },
  // tolerated: kube accepts these, kapi must too
  { name: 'publishNotReadyAddresses on ClusterIP (valid)', spec: { publishNotReadyAddresses: true } },
  { name: 'externalName trailing dot (valid)', spec: { type: 'ExternalName', externalName: 'example.com.', ports: [] } },
  { name: 'headless with targetPort (valid)', spec: { clusterIP: 'None', ...port({ targetPort: 8080 }) } },
];

export const SERVICE_UPDATE_CASES: readonly ServiceUpdateCase[] = [
  { name: 'clusterIP changed', mutate: (s) => { s.spec['clusterIP'] = '10.0.0.99'; s.spec['clusterIPs'] = ['10.0.0.99']; } },
  { name: 'ipFamilies changed', spec: { clusterIP: '10.0.0.50' }, mutate: (s) => { s.spec['ipFamilies'] = ['IPv6']; } },
  { name: 'loadBalancerClass changed', spec: lb({ loadBalancerClass: 'example.com/a' }), mutate: (s) => { s.spec['loadBalancerClass'] = 'example.com/b'; } },
  { name: 'loadBalancerClass set on a LoadBalancer', spec: lb(), mutate: (s) => { s.spec['loadBalancerClass'] = 'example.com/b'; } },
  { name: 'loadBalancerClass set on a ClusterIP', mutate: (s) => { s.spec['loadBalancerClass'] = 'example.com/b'; } },
  { name: 'loadBalancerClass changed to an invalid one', spec: lb({ loadBalancerClass: 'example.com/a' }), mutate: (s) => { s.spec['loadBalancerClass'] = 'bad class'; } },
  { name: 'healthCheckNodePort changed', spec: lb({ externalTrafficPolicy: 'Local' }), mutate: (s) => { s.spec['healthCheckNodePort'] = 31999; } },
  { name: 'externalIP loopback added', mutate: (s) => { s.spec['externalIPs'] = ['127.0.0.1']; } },
  { name: 'source-ranges annotation invalid on update', spec: lb(), mutate: (s) => { s.metadata.annotations = { 'service.beta.kubernetes.io/load-balancer-source-ranges': 'bogus' }; } },
  { name: 'nodePort changed to one outside the range', spec: np(), mutate: (s) => { (s.spec['ports'] as Record<string, unknown>[])[0]!['nodePort'] = 29999; } },
  { name: 'LoadBalancer to ClusterIP keeping loadBalancerClass', spec: lb({ loadBalancerClass: 'example.com/a' }), mutate: (s) => { s.spec['type'] = 'ClusterIP'; } },
  { name: 'externalIP leading zeros the old service held (valid)', spec: { externalIPs: ['1.2.3.4'] }, mutate: (s) => { s.spec['externalIPs'] = ['1.2.3.4', '5.6.7.08']; } },
  { name: 'status ingress valid', spec: lb(), subresource: 'status', mutate: (s) => { s.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'Proxy', hostname: 'lb.example.com' }] } }; } },
  { name: 'to ExternalName without externalName', mutate: (s) => { s.spec['type'] = 'ExternalName'; } },
  { name: 'to ExternalName keeping a changed clusterIP', mutate: (s) => { s.spec['type'] = 'ExternalName'; s.spec['externalName'] = 'example.com'; s.spec['clusterIP'] = '10.0.0.77'; } },
  { name: 'NodePort to ClusterIP with a new nodePort', spec: np(), mutate: (s) => { s.spec['type'] = 'ClusterIP'; (s.spec['ports'] as Record<string, unknown>[])[0]!['nodePort'] = 30555; } },
  { name: 'LoadBalancer Local to Cluster keeping healthCheckNodePort', spec: lb({ externalTrafficPolicy: 'Local' }), mutate: (s) => { s.spec['externalTrafficPolicy'] = 'Cluster'; } },
  { name: 'sessionAffinity to None keeping its config', mutate: (s) => { s.spec['sessionAffinity'] = 'ClientIP'; s.spec['sessionAffinityConfig'] = { clientIP: { timeoutSeconds: 0 } }; } },
  { name: 'type Bogus on update', mutate: (s) => { s.spec['type'] = 'Bogus'; } },
  { name: 'status ingress on ClusterIP', subresource: 'status', mutate: (s) => { s.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] } }; } },
  { name: 'status ingress ip invalid', spec: lb(), subresource: 'status', mutate: (s) => { s.status = { loadBalancer: { ingress: [{ ip: 'bogus', ipMode: 'VIP' }] } }; } },
  { name: 'status ingress ip without ipMode', spec: lb(), subresource: 'status', mutate: (s) => { s.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } }; } },
  { name: 'status ingress ipMode without ip', spec: lb(), subresource: 'status', mutate: (s) => { s.status = { loadBalancer: { ingress: [{ hostname: 'lb.example.com', ipMode: 'VIP' }] } }; } },
  { name: 'status ingress ipMode Bogus', spec: lb(), subresource: 'status', mutate: (s) => { s.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'Bogus' }] } }; } },
  { name: 'status ingress hostname invalid', spec: lb(), subresource: 'status', mutate: (s) => { s.status = { loadBalancer: { ingress: [{ hostname: 'bad_host' }] } }; } },
  { name: 'status ingress hostname an IP', spec: lb(), subresource: 'status', mutate: (s) => { s.status = { loadBalancer: { ingress: [{ hostname: '1.2.3.4' }] } }; } },
];

/** The object of a case: a valid Service with the case's fault merged in. */
export function serviceOfCase(c: { spec?: Record<string, unknown>; metadata?: Record<string, unknown> }, name: string): Record<string, unknown> {
  return {
    apiVersion: 'v1', kind: 'Service', metadata: { name, ...c.metadata },
    spec: { selector: { app: 'corpus' }, ports: [{ port: 80 }], ...c.spec },
  };
}
