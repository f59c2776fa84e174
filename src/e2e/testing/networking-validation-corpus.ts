// The networking.k8s.io/v1 corpus: one case per rule of kube's pkg/apis/networking/validation
// (ValidateIngressCreate/Update/StatusUpdate, ValidateIngressClass(Update), ValidateNetworkPolicy
// (Update), ValidateIPAddress(Update), ValidateServiceCIDR(Update/StatusUpdate)) under v1.36's
// feature defaults (StrictIPCIDRValidation and RelaxedServiceNameValidation on), plus valid
// objects that must be accepted. Sent by e2e/networking-validation.test.ts.
import type { RawRequest } from './https-client.ts';
import { patch, post, put, type ValidationCase } from './validation-differential.ts';

type Obj = Record<string, unknown>;
const G = '/apis/networking.k8s.io/v1';
const ING = (ns: string): string => `${G}/namespaces/${ns}/ingresses`;
const NP = (ns: string): string => `${G}/namespaces/${ns}/networkpolicies`;
const IC = `${G}/ingressclasses`;
const IPA = `${G}/ipaddresses`;
const SC = `${G}/servicecidrs`;

// ---- Ingress ----
const backend = (b: Obj = {}): Obj => ({ service: { name: 'svc', port: { number: 80 } }, ...b });
const path = (p: Obj = {}): Obj => ({ path: '/', pathType: 'Prefix', backend: backend(), ...p });
const rule = (r: Obj = {}, paths: Obj[] = [path()]): Obj => ({ host: 'foo.example.com', http: { paths }, ...r });
const ingress = (name: string, spec: Obj = {}, meta: Obj = {}): Obj => ({ metadata: { name, ...meta }, spec: { rules: [rule()], ...spec } });
const ing = (spec: Obj, meta: Obj = {}) => (n: string, ns: string): readonly RawRequest[] => [post(ING(ns), ingress(n, spec, meta))];
const ingPath = (p: Obj) => ing({ rules: [rule({}, [path(p)])] });
const ingBackend = (b: Obj) => ing({ rules: [rule({}, [path({ backend: b })])] });
const svcBackend = (svc: Obj) => ingBackend({ service: svc });
/** Creates a valid Ingress, then PUTs `spec` over it. */
const ingUpdate = (spec: Obj, meta: Obj = {}) => (n: string, ns: string): readonly RawRequest[] =>
  [post(ING(ns), ingress(n)), put(`${ING(ns)}/${n}`, ingress(n, spec, meta))];
/** Creates a valid Ingress, then writes `status` through the status subresource. */
const ingStatus = (status: Obj) => (n: string, ns: string): readonly RawRequest[] =>
  [post(ING(ns), ingress(n)), patch(`${ING(ns)}/${n}/status`, { status })];
const lbIngress = (...items: Obj[]): Obj => ({ loadBalancer: { ingress: items } });

const INGRESS_CASES: ValidationCase[] = [
  { name: 'ingress: valid', requests: ing({}) },
  { name: 'ingress: valid with defaultBackend only', requests: ing({ rules: [], defaultBackend: backend() }) },
  { name: 'ingress: valid wildcard host', requests: ing({ rules: [rule({ host: '*.example.com' })] }) },
  { name: 'ingress: valid resource backend', requests: ingBackend({ resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'b' } }) },
  { name: 'ingress: valid ImplementationSpecific without path', requests: ingPath({ pathType: 'ImplementationSpecific', path: '' }) },
  { name: 'ingress: valid rule without http', requests: ing({ rules: [{ host: 'foo.example.com' }] }) },
  { name: 'ingress: name invalid', requests: (n, ns) => [post(ING(ns), ingress(`${n}_X`))] },
  { name: 'ingress: annotation key invalid', requests: ing({}, { annotations: { 'bad key': 'v' } }) },
  { name: 'ingress: neither rules nor defaultBackend', requests: ing({ rules: [] }) },
  { name: 'ingress: host is an IP', requests: ing({ rules: [rule({ host: '1.2.3.4' })] }) },
  { name: 'ingress: host invalid', requests: ing({ rules: [rule({ host: 'Foo_Bar.example.com' })] }) },
  { name: 'ingress: wildcard host not leading', requests: ing({ rules: [rule({ host: 'foo.*.example.com' })] }) },
  { name: 'ingress: double wildcard host', requests: ing({ rules: [rule({ host: '*.*.example.com' })] }) },
  { name: 'ingress: http without paths', requests: ing({ rules: [rule({}, [])] }) },
  { name: 'ingress: pathType missing', requests: (n, ns) => [post(ING(ns), ingress(n, { rules: [rule({}, [{ path: '/', backend: backend() }])] }))] },
  { name: 'ingress: pathType Bogus', requests: ingPath({ pathType: 'Bogus' }) },
  { name: 'ingress: Exact path relative', requests: ingPath({ pathType: 'Exact', path: 'foo' }) },
  { name: 'ingress: Prefix path empty', requests: ingPath({ path: '' }) },
  { name: 'ingress: Prefix path with //', requests: ingPath({ path: '/a//b' }) },
  { name: 'ingress: Prefix path with /./', requests: ingPath({ path: '/a/./b' }) },
  { name: 'ingress: Prefix path with /../', requests: ingPath({ path: '/a/../b' }) },
  { name: 'ingress: Prefix path with %2f', requests: ingPath({ path: '/a%2fb' }) },
  { name: 'ingress: Exact path with %2F', requests: ingPath({ pathType: 'Exact', path: '/a%2Fb' }) },
  { name: 'ingress: Prefix path ending /..', requests: ingPath({ path: '/a/..' }) },
  { name: 'ingress: Prefix path ending /.', requests: ingPath({ path: '/a/.' }) },
  { name: 'ingress: Prefix path relative with several faults', requests: ingPath({ path: 'a//b/..' }) },
  { name: 'ingress: ImplementationSpecific path relative', requests: ingPath({ pathType: 'ImplementationSpecific', path: 'foo' }) },
  { name: 'ingress: ImplementationSpecific path with // is fine', requests: ingPath({ pathType: 'ImplementationSpecific', path: '/a//b' }) },
  { name: 'ingress: backend empty', requests: ingBackend({ service: undefined }) },
  { name: 'ingress: backend with resource and service', requests: ingBackend({ resource: { kind: 'Bucket', name: 'b' } }) },
  { name: 'ingress: resource backend without kind', requests: ingBackend({ service: undefined, resource: { name: 'b' } }) },
  { name: 'ingress: resource backend without name', requests: ingBackend({ service: undefined, resource: { kind: 'Bucket' } }) },
  { name: 'ingress: resource backend kind with slash', requests: ingBackend({ service: undefined, resource: { kind: 'a/b', name: 'b' } }) },
  { name: 'ingress: resource backend name ..', requests: ingBackend({ service: undefined, resource: { kind: 'Bucket', name: '..' } }) },
  { name: 'ingress: resource backend apiGroup invalid', requests: ingBackend({ service: undefined, resource: { apiGroup: 'Bad_Group', kind: 'Bucket', name: 'b' } }) },
  { name: 'ingress: service name missing', requests: svcBackend({ port: { number: 80 } }) },
  { name: 'ingress: service name invalid', requests: svcBackend({ name: 'Bad_Name', port: { number: 80 } }) },
  { name: 'ingress: service name starting with a digit (relaxed in v1.36)', requests: svcBackend({ name: '1abc', port: { number: 80 } }) },
  { name: 'ingress: service name too long', requests: svcBackend({ name: 'a'.repeat(64), port: { number: 80 } }) },
  { name: 'ingress: service port name and number', requests: svcBackend({ name: 'svc', port: { name: 'http', number: 80 } }) },
  { name: 'ingress: service port missing', requests: svcBackend({ name: 'svc' }) },
  { name: 'ingress: service port number 0', requests: svcBackend({ name: 'svc', port: { number: 0 } }) },
  { name: 'ingress: service port number 70000', requests: svcBackend({ name: 'svc', port: { number: 70000 } }) },
  { name: 'ingress: service port name invalid', requests: svcBackend({ name: 'svc', port: { name: 'Bad_Name' } }) },
  { name: 'ingress: service port name too long', requests: svcBackend({ name: 'svc', port: { name: 'abcdefghijklmnopq' } }) },
  { name: 'ingress: defaultBackend invalid', requests: ing({ rules: [], defaultBackend: { service: { name: 'svc' } } }) },
  { name: 'ingress: tls host invalid', requests: ing({ tls: [{ hosts: ['Bad_Host'] }] }) },
  { name: 'ingress: tls wildcard host valid', requests: ing({ tls: [{ hosts: ['*.example.com'], secretName: 'tls' }] }) },
  { name: 'ingress: tls wildcard host invalid', requests: ing({ tls: [{ hosts: ['*.Bad'] }] }) },
  { name: 'ingress: tls secretName invalid', requests: ing({ tls: [{ secretName: 'Bad_Secret' }] }) },
  { name: 'ingress: ingressClassName invalid', requests: ing({ ingressClassName: 'Bad_Class' }) },
  { name: 'ingress: class annotation unlike ingressClassName', requests: ing({ ingressClassName: 'a' }, { annotations: { 'kubernetes.io/ingress.class': 'b' } }) },
  { name: 'ingress: class annotation alone (a warning)', requests: ing({}, { annotations: { 'kubernetes.io/ingress.class': 'nginx' } }) },
  { name: 'ingress: resource backend apiGroup empty', requests: ingBackend({ service: undefined, resource: { apiGroup: '', kind: 'Bucket', name: 'b' } }) },
  { name: 'ingress: host with a port', requests: ing({ rules: [rule({ host: 'foo.example.com:80' })] }) },
  { name: 'ingress: host too long', requests: ing({ rules: [rule({ host: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com` })] }) },
  { name: 'ingress: several rules, faults in each', requests: ing({ rules: [rule({ host: '1.2.3.4' }), rule({}, [path({ pathType: 'Exact', path: 'x' }), path({ backend: {} })])] }) },
  { name: 'ingress: class annotation equal to ingressClassName', requests: ing({ ingressClassName: 'a' }, { annotations: { 'kubernetes.io/ingress.class': 'a' } }) },
  // update
  { name: 'ingress update: valid', requests: ingUpdate({ rules: [rule({ host: 'bar.example.com' })] }) },
  { name: 'ingress update: path made invalid', requests: ingUpdate({ rules: [rule({}, [path({ path: '/a/../b' })])] }) },
  { name: 'ingress update: rules removed', requests: ingUpdate({ rules: [] }) },
  { name: 'ingress update: tls secretName invalid', requests: ingUpdate({ tls: [{ secretName: 'Bad_Secret' }] }) },
  { name: 'ingress update: class annotation unlike ingressClassName is not checked', requests: ingUpdate({ ingressClassName: 'a' }, { annotations: { 'kubernetes.io/ingress.class': 'b' } }) },
  { name: 'ingress update: annotation key invalid', requests: ingUpdate({}, { annotations: { 'bad key': 'v' } }) },
  { name: 'ingress update: label value invalid', requests: ingUpdate({}, { labels: { a: 'bad value' } }) },
  // status
  { name: 'ingress status: label value invalid', requests: (n, ns) => [post(ING(ns), ingress(n)), patch(`${ING(ns)}/${n}/status`, { metadata: { labels: { a: 'bad value' } } })] },
  { name: 'ingress status: valid ip and hostname', requests: ingStatus(lbIngress({ ip: '1.2.3.4' }, { hostname: 'lb.example.com' })) },
  { name: 'ingress status: valid IPv6 ip', requests: ingStatus(lbIngress({ ip: '2001:db8::1' })) },
  { name: 'ingress status: ip invalid', requests: ingStatus(lbIngress({ ip: 'bogus' })) },
  { name: 'ingress status: ip with leading zeros', requests: ingStatus(lbIngress({ ip: '001.2.3.4' })) },
  { name: 'ingress status: IPv4-mapped IPv6 ip', requests: ingStatus(lbIngress({ ip: '::ffff:1.2.3.4' })) },
  { name: 'ingress status: IPv6 ip not canonical', requests: ingStatus(lbIngress({ ip: '2001:db8:0::1' })) },
  { name: 'ingress status: hostname invalid', requests: ingStatus(lbIngress({ hostname: 'Bad_Host' })) },
  { name: 'ingress status: hostname is an IP', requests: ingStatus(lbIngress({ hostname: '1.2.3.4' })) },
  { name: 'ingress status: ip and hostname both invalid', requests: ingStatus(lbIngress({ ip: '1.2.3', hostname: '-bad' })) },
  { name: 'ingress status: ports valid', requests: ingStatus(lbIngress({ ip: '1.2.3.4', ports: [{ port: 80, protocol: 'TCP' }, { port: 443, protocol: 'UDP', error: 'Pending' }] })) },
  { name: 'ingress status: port protocol Bogus', requests: ingStatus(lbIngress({ ip: '1.2.3.4', ports: [{ port: 80, protocol: 'Bogus' }] })) },
  { name: 'ingress status: port 0 without protocol', requests: ingStatus(lbIngress({ ip: '1.2.3.4', ports: [{ port: 0 }] })) },
  { name: 'ingress status: port error with spaces', requests: ingStatus(lbIngress({ ip: '1.2.3.4', ports: [{ port: 80, protocol: 'TCP', error: 'not a valid reason' }] })) },
  { name: 'ingress status: several entries, one invalid', requests: ingStatus(lbIngress({ ip: '1.2.3.4' }, { ip: '1.2.3.x' }, { hostname: 'ok.example.com' })) },
];

// ---- IngressClass ----
const ingressClass = (name: string, spec: Obj = {}): Obj => ({ metadata: { name }, spec: { controller: 'example.com/ingress', ...spec } });
const ic = (spec: Obj) => (n: string): readonly RawRequest[] => [post(IC, ingressClass(n, spec))];
const icParams = (params: Obj) => ic({ parameters: { kind: 'Params', name: 'p', ...params } });
const icUpdate = (spec: Obj) => (n: string): readonly RawRequest[] => [post(IC, ingressClass(n)), put(`${IC}/${n}`, ingressClass(n, spec))];

const INGRESS_CLASS_CASES: ValidationCase[] = [
  { name: 'ingressclass: valid', requests: ic({}) },
  { name: 'ingressclass: valid cluster parameters (scope defaulted)', requests: icParams({ apiGroup: 'example.com' }) },
  { name: 'ingressclass: valid namespace parameters', requests: icParams({ scope: 'Namespace', namespace: 'ns1' }) },
  { name: 'ingressclass: name invalid', requests: (n) => [post(IC, ingressClass(`${n}_X`))] },
  { name: 'ingressclass: controller missing', requests: ic({ controller: '' }) },
  { name: 'ingressclass: controller too long', requests: ic({ controller: `example.com/${'a'.repeat(250)}` }) },
  { name: 'ingressclass: controller without domain', requests: ic({ controller: 'ingress' }) },
  { name: 'ingressclass: controller with empty path', requests: ic({ controller: 'example.com/' }) },
  { name: 'ingressclass: controller domain invalid', requests: ic({ controller: 'Bad_Domain/ingress' }) },
  { name: 'ingressclass: controller path invalid', requests: ic({ controller: 'example.com/bad path' }) },
  { name: 'ingressclass: parameters kind missing', requests: icParams({ kind: '' }) },
  { name: 'ingressclass: parameters name missing', requests: icParams({ name: '' }) },
  { name: 'ingressclass: parameters kind with slash', requests: icParams({ kind: 'a/b' }) },
  { name: 'ingressclass: parameters name with %', requests: icParams({ name: 'a%b' }) },
  { name: 'ingressclass: parameters apiGroup invalid', requests: icParams({ apiGroup: 'Bad_Group' }) },
  { name: 'ingressclass: parameters apiGroup empty', requests: icParams({ apiGroup: '' }) },
  { name: 'ingressclass: parameters namespace empty with scope Namespace', requests: icParams({ scope: 'Namespace', namespace: '' }) },
  { name: 'ingressclass: parameters scope Bogus', requests: icParams({ scope: 'Bogus' }) },
  { name: 'ingressclass: parameters scope Namespace without namespace', requests: icParams({ scope: 'Namespace' }) },
  { name: 'ingressclass: parameters scope Namespace with invalid namespace', requests: icParams({ scope: 'Namespace', namespace: 'Bad_NS' }) },
  { name: 'ingressclass: parameters scope Cluster with namespace', requests: icParams({ scope: 'Cluster', namespace: 'ns1' }) },
  { name: 'ingressclass: parameters namespace without scope', requests: icParams({ namespace: 'ns1' }) },
  { name: 'ingressclass update: parameters changed', requests: icUpdate({ parameters: { kind: 'Params', name: 'q' } }) },
  { name: 'ingressclass update: controller changed', requests: icUpdate({ controller: 'example.com/other' }) },
  { name: 'ingressclass update: controller changed and invalid', requests: icUpdate({ controller: 'nodomain' }) },
  { name: 'ingressclass update: annotation key invalid', requests: (n) => [post(IC, ingressClass(n)), put(`${IC}/${n}`, { ...ingressClass(n), metadata: { name: n, annotations: { 'bad key': 'v' } } })] },
  { name: 'ingressclass update: parameters made invalid', requests: icUpdate({ parameters: { kind: 'Params', name: 'p', scope: 'Namespace' } }) },
];

// ---- NetworkPolicy ----
const policy = (name: string, spec: Obj = {}): Obj => ({ metadata: { name }, spec: { podSelector: {}, ...spec } });
const np = (spec: Obj) => (n: string, ns: string): readonly RawRequest[] => [post(NP(ns), policy(n, spec))];
const npPort = (port: Obj) => np({ ingress: [{ ports: [port] }] });
const npFrom = (peer: Obj) => np({ ingress: [{ from: [peer] }] });
const npTo = (peer: Obj) => np({ egress: [{ to: [peer] }] });
const npUpdate = (spec: Obj) => (n: string, ns: string): readonly RawRequest[] => [post(NP(ns), policy(n)), put(`${NP(ns)}/${n}`, policy(n, spec))];

const NETWORK_POLICY_CASES: ValidationCase[] = [
  { name: 'networkpolicy: valid', requests: np({}) },
  { name: 'networkpolicy: valid full', requests: np({
    podSelector: { matchLabels: { app: 'x' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] },
    ingress: [{ from: [{ podSelector: {} }, { namespaceSelector: {}, podSelector: {} }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 80 }, { port: 'http' }, { port: 1000, endPort: 2000, protocol: 'UDP' }] }],
    egress: [{ to: [{ ipBlock: { cidr: '2001:db8::/32', except: ['2001:db8:1::/48'] } }], ports: [{ protocol: 'SCTP' }] }],
    policyTypes: ['Ingress', 'Egress'],
  }) },
  { name: 'networkpolicy: name invalid', requests: (n, ns) => [post(NP(ns), policy(`${n}_X`))] },
  { name: 'networkpolicy: podSelector label key invalid', requests: np({ podSelector: { matchLabels: { 'bad key': 'v' } } }) },
  { name: 'networkpolicy: podSelector label value invalid', requests: np({ podSelector: { matchLabels: { app: 'bad value' } } }) },
  { name: 'networkpolicy: podSelector operator Bogus', requests: np({ podSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } }) },
  { name: 'networkpolicy: podSelector In without values', requests: np({ podSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }) },
  { name: 'networkpolicy: podSelector Exists with values', requests: np({ podSelector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] } }) },
  { name: 'networkpolicy: port protocol Bogus', requests: npPort({ protocol: 'Bogus', port: 80 }) },
  { name: 'networkpolicy: port 0', requests: npPort({ port: 0 }) },
  { name: 'networkpolicy: port 70000', requests: npPort({ port: 70000 }) },
  { name: 'networkpolicy: named port invalid', requests: npPort({ port: 'Bad_Name' }) },
  { name: 'networkpolicy: named port too long', requests: npPort({ port: 'abcdefghijklmnopq' }) },
  { name: 'networkpolicy: endPort below port', requests: npPort({ port: 80, endPort: 79 }) },
  { name: 'networkpolicy: endPort 70000', requests: npPort({ port: 80, endPort: 70000 }) },
  { name: 'networkpolicy: endPort with named port', requests: npPort({ port: 'http', endPort: 90 }) },
  { name: 'networkpolicy: endPort without port', requests: npPort({ endPort: 90 }) },
  { name: 'networkpolicy: egress port invalid', requests: np({ egress: [{ ports: [{ port: 0, protocol: 'ICMP' }] }] }) },
  { name: 'networkpolicy: empty peer', requests: npFrom({}) },
  { name: 'networkpolicy: ipBlock with podSelector', requests: npFrom({ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }) },
  { name: 'networkpolicy: ipBlock with namespaceSelector', requests: npTo({ ipBlock: { cidr: '10.0.0.0/8' }, namespaceSelector: {} }) },
  { name: 'networkpolicy: ipBlock cidr missing', requests: npFrom({ ipBlock: { except: ['10.0.0.0/8'] } }) },
  { name: 'networkpolicy: ipBlock cidr invalid', requests: npFrom({ ipBlock: { cidr: 'bogus' } }) },
  { name: 'networkpolicy: ipBlock cidr with host bits', requests: npFrom({ ipBlock: { cidr: '10.0.0.1/8' } }) },
  { name: 'networkpolicy: ipBlock cidr with leading zeros', requests: npFrom({ ipBlock: { cidr: '010.0.0.0/8' } }) },
  { name: 'networkpolicy: ipBlock IPv4-mapped cidr', requests: npFrom({ ipBlock: { cidr: '::ffff:10.0.0.0/104' } }) },
  { name: 'networkpolicy: IPv6 cidr not canonical (a warning)', requests: npFrom({ ipBlock: { cidr: '2001:db8:0::/48', except: ['2001:DB8:0:1::/64'] } }) },
  { name: 'networkpolicy: except invalid', requests: npFrom({ ipBlock: { cidr: '10.0.0.0/8', except: ['bogus'] } }) },
  { name: 'networkpolicy: except outside cidr', requests: npFrom({ ipBlock: { cidr: '10.0.0.0/8', except: ['11.0.0.0/16'] } }) },
  { name: 'networkpolicy: except equal to cidr', requests: npFrom({ ipBlock: { cidr: '10.0.0.0/8', except: ['10.0.0.0/8'] } }) },
  { name: 'networkpolicy: except of the other family', requests: npFrom({ ipBlock: { cidr: '10.0.0.0/8', except: ['2001:db8::/32'] } }) },
  { name: 'networkpolicy: except with host bits', requests: npTo({ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.1/16'] } }) },
  { name: 'networkpolicy: namespaceSelector invalid', requests: npTo({ namespaceSelector: { matchExpressions: [{ key: 'Bad Key', operator: 'Exists' }] } }) },
  { name: 'networkpolicy: policyTypes Bogus', requests: np({ policyTypes: ['Bogus'] }) },
  { name: 'networkpolicy: three policyTypes', requests: np({ policyTypes: ['Ingress', 'Egress', 'Ingress'] }) },
  { name: 'networkpolicy: duplicate policyTypes', requests: np({ policyTypes: ['Ingress', 'Ingress'] }) },
  { name: 'networkpolicy update: valid', requests: npUpdate({ policyTypes: ['Egress'] }) },
  { name: 'networkpolicy update: ipBlock made invalid', requests: npUpdate({ ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.1/8' } }] }] }) },
  { name: 'networkpolicy update: IPv6 cidr not canonical (a warning)', requests: npUpdate({ egress: [{ to: [{ ipBlock: { cidr: '2001:db8:0::/48' } }] }] }) },
  { name: 'networkpolicy update: label value invalid', requests: (n, ns) => [post(NP(ns), policy(n)), put(`${NP(ns)}/${n}`, { ...policy(n), metadata: { name: n, labels: { a: 'bad value' } } })] },
  { name: 'networkpolicy update: podSelector made invalid', requests: npUpdate({ podSelector: { matchLabels: { app: 'bad value' } } }) },
];

// ---- IPAddress (named by an address unique to the case) ----
const caseIP = (n: string): string => `192.168.77.${Number(/\d+$/.exec(n)?.[0] ?? '0') % 250 + 1}`;
const ipAddress = (name: string, spec: Obj = {}, meta: Obj = {}): Obj =>
  ({ metadata: { name, ...meta }, spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'svc' }, ...spec } });
const ipa = (spec: Obj, name?: string) => (n: string): readonly RawRequest[] => [post(IPA, ipAddress(name ?? caseIP(n), spec))];
const ref = (r: Obj) => ipa({ parentRef: { resource: 'services', name: 'svc', ...r } });
const ipaUpdate = (spec: Obj, meta: Obj = {}) => (n: string): readonly RawRequest[] =>
  [post(IPA, ipAddress(caseIP(n))), put(`${IPA}/${caseIP(n)}`, ipAddress(caseIP(n), spec, meta))];

const IP_ADDRESS_CASES: ValidationCase[] = [
  { name: 'ipaddress: valid', requests: ipa({}) },
  { name: 'ipaddress: valid IPv6', requests: (n) => [post(IPA, ipAddress(`2001:db8::${Number(/\d+$/.exec(n)?.[0] ?? '0').toString(16)}`))] },
  { name: 'ipaddress: valid with a group and no namespace', requests: ref({ group: 'example.com', resource: 'gateways', namespace: undefined }) },
  { name: 'ipaddress: name not an IP', requests: ipa({}, 'not-an-ip') },
  { name: 'ipaddress: name with leading zeros', requests: ipa({}, '192.168.077.1') },
  { name: 'ipaddress: name IPv6 not canonical', requests: ipa({}, '2001:db8:0::1') },
  { name: 'ipaddress: name IPv6 upper case', requests: ipa({}, '2001:DB8::1') },
  { name: 'ipaddress: name IPv4-mapped', requests: ipa({}, '::ffff:192.168.77.200') },
  { name: 'ipaddress: generateName only', requests: () => [post(IPA, { metadata: { generateName: '10.0.0.' }, spec: { parentRef: { resource: 'services', name: 'svc' } } })] },
  { name: 'ipaddress: name IPv6 with a zone', requests: ipa({}, 'fe80::1%eth0') },
  { name: 'ipaddress: name missing', requests: () => [post(IPA, { metadata: {}, spec: { parentRef: { resource: 'services', name: 'svc' } } })] },
  { name: 'ipaddress: parentRef missing', requests: ipa({ parentRef: undefined }) },
  { name: 'ipaddress: parentRef resource missing', requests: ref({ resource: '' }) },
  { name: 'ipaddress: parentRef name missing', requests: ref({ name: '' }) },
  { name: 'ipaddress: parentRef resource with slash', requests: ref({ resource: 'a/b' }) },
  { name: 'ipaddress: parentRef name ..', requests: ref({ name: '..' }) },
  { name: 'ipaddress: parentRef namespace with %', requests: ref({ namespace: 'a%b' }) },
  { name: 'ipaddress: parentRef group invalid', requests: ref({ group: 'Bad_Group' }) },
  { name: 'ipaddress update: labels', requests: ipaUpdate({}, { labels: { a: 'b' } }) },
  { name: 'ipaddress update: label value invalid', requests: ipaUpdate({}, { labels: { a: 'bad value' } }) },
  { name: 'ipaddress update: parentRef changed', requests: ipaUpdate({ parentRef: { resource: 'services', namespace: 'default', name: 'other' } }) },
  { name: 'ipaddress update: parentRef removed', requests: ipaUpdate({ parentRef: undefined }) },
];

// ---- ServiceCIDR (ranges unique to the case, outside the service range) ----
const caseNet = (n: string): number => Number(/\d+$/.exec(n)?.[0] ?? '0') % 250;
const v4 = (n: string): string => `172.20.${caseNet(n)}.0/24`;
const v6 = (n: string): string => `fd77:${caseNet(n).toString(16)}::/112`;
const serviceCIDR = (name: string, cidrs: unknown): Obj => ({ metadata: { name }, spec: { cidrs } });
const sc = (cidrs: (n: string) => unknown) => (n: string): readonly RawRequest[] => [post(SC, serviceCIDR(n, cidrs(n)))];
const scUpdate = (first: (n: string) => string[], next: (n: string) => unknown) => (n: string): readonly RawRequest[] =>
  [post(SC, serviceCIDR(n, first(n))), put(`${SC}/${n}`, serviceCIDR(n, next(n)))];
const scStatus = (status: Obj) => (n: string): readonly RawRequest[] => [post(SC, serviceCIDR(n, [v4(n)])), patch(`${SC}/${n}/status`, { status })];

const SERVICE_CIDR_CASES: ValidationCase[] = [
  { name: 'servicecidr: valid', requests: sc((n) => [v4(n)]) },
  { name: 'servicecidr: valid dual-stack', requests: sc((n) => [v6(n), v4(n)]) },
  { name: 'servicecidr: name invalid', requests: (n) => [post(SC, serviceCIDR(`${n}_X`, [v4(n)]))] },
  { name: 'servicecidr: no cidrs', requests: sc(() => []) },
  { name: 'servicecidr: cidrs missing', requests: (n) => [post(SC, { metadata: { name: n }, spec: {} })] },
  { name: 'servicecidr: three cidrs', requests: sc((n) => [v4(n), v6(n), '172.21.0.0/24']) },
  { name: 'servicecidr: cidr invalid', requests: sc(() => ['bogus']) },
  { name: 'servicecidr: cidr with host bits', requests: sc((n) => [v4(n).replace('.0/24', '.1/24')]) },
  { name: 'servicecidr: cidr with leading zeros', requests: sc((n) => [`172.020.${caseNet(n)}.0/24`]) },
  { name: 'servicecidr: IPv6 cidr not canonical', requests: sc((n) => [v6(n).replace('::', ':0::')]) },
  { name: 'servicecidr: IPv4-mapped cidr', requests: sc(() => ['::ffff:172.20.0.0/120']) },
  { name: 'servicecidr: a single address', requests: sc((n) => [v4(n).replace('.0/24', '.1/32')]) },
  { name: 'servicecidr: two of one family', requests: sc((n) => [v4(n), '172.21.0.0/24']) },
  { name: 'servicecidr: two invalid', requests: sc(() => ['bogus', 'bogus2']) },
  // no size limit: more than 20 host bits, whole families (dry runs: they would hold every address)
  ...[['IPv4 /8', ['10.0.0.0/8']], ['IPv4 /0', ['0.0.0.0/0']], ['IPv6 /48', ['fd00::/48']], ['IPv6 /0', ['::/0']], ['dual-stack /1', ['0.0.0.0/1', '::/1']]]
    .map(([what, cidrs]): ValidationCase => ({ name: `servicecidr: ${String(what)}`, requests: (n) => [post(`${SC}?dryRun=All`, serviceCIDR(n, cidrs))] })),
  { name: 'servicecidr update: same cidrs', requests: scUpdate((n) => [v4(n)], (n) => [v4(n)]) },
  { name: 'servicecidr update: cidr changed', requests: scUpdate((n) => [v4(n)], () => ['172.22.0.0/24']) },
  { name: 'servicecidr update: second family added', requests: scUpdate((n) => [v4(n)], (n) => [v4(n), v6(n)]) },
  { name: 'servicecidr update: second of one family added', requests: scUpdate((n) => [v4(n)], (n) => [v4(n), '172.22.0.0/24']) },
  { name: 'servicecidr update: second added, first changed', requests: scUpdate((n) => [v4(n)], (n) => ['172.22.0.0/24', v6(n)]) },
  { name: 'servicecidr update: second added invalid', requests: scUpdate((n) => [v4(n)], (n) => [v4(n), 'bogus']) },
  { name: 'servicecidr update: one removed', requests: scUpdate((n) => [v4(n), v6(n)], (n) => [v4(n)]) },
  { name: 'servicecidr update: cidrs emptied', requests: scUpdate((n) => [v4(n)], () => []) },
  { name: 'servicecidr update: order swapped', requests: scUpdate((n) => [v4(n), v6(n)], (n) => [v6(n), v4(n)]) },
  { name: 'servicecidr update: label value invalid', requests: (n) => [post(SC, serviceCIDR(n, [v4(n)])), put(`${SC}/${n}`, { ...serviceCIDR(n, [v4(n)]), metadata: { name: n, labels: { a: 'bad value' } } })] },
  { name: 'servicecidr status: label value invalid', requests: (n) => [post(SC, serviceCIDR(n, [v4(n)])), patch(`${SC}/${n}/status`, { metadata: { labels: { a: 'bad value' } } })] },
  { name: 'servicecidr status: Ready condition', requests: scStatus({ conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: 'm', lastTransitionTime: '2024-01-01T00:00:00Z' }] }) },
  { name: 'servicecidr status: condition without type or status', requests: scStatus({ conditions: [{ reason: 'bad reason', message: 'm', lastTransitionTime: '2024-01-01T00:00:00Z' }] }) },
  { name: 'servicecidr status: spec change is ignored', requests: (n) => [post(SC, serviceCIDR(n, [v4(n)])), patch(`${SC}/${n}/status`, { spec: { cidrs: ['bogus'] } })] },
];

export const NETWORKING_CASES: readonly ValidationCase[] = [
  ...INGRESS_CASES, ...INGRESS_CLASS_CASES, ...NETWORK_POLICY_CASES, ...IP_ADDRESS_CASES, ...SERVICE_CIDR_CASES,
];
