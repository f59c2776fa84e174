import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { ingresses } from './ingress/ingress.ts';
import { ingressClasses } from './ingressclass/ingressclass.ts';
import { networkingGroup } from './install.ts';
import { ipAddresses } from './ipaddress/ipaddress.ts';
import { networkPolicies } from './networkpolicy/networkpolicy.ts';
import { serviceCIDRs } from './servicecidr/servicecidr.ts';
import type { Ingress, IngressClass, IPAddress, NetworkPolicy, ServiceCIDR } from './v1/types.ts';

const ctx = systemContext('default');
const fmt = (errs: readonly Parameters<typeof formatFieldError>[0][]) => errs.map(formatFieldError);
const backend = { service: { name: 'web', port: { number: 80 } } };
const ing = (spec: Ingress['spec'] & object, extra: Partial<Ingress> = {}): Ingress => ({ metadata: { name: 'i', namespace: 'default', resourceVersion: '1' }, spec, ...extra });

describe('ingresses', () => {
  const cases: { name: string; obj: Ingress; want: string[] }[] = [
    { name: 'valid', obj: ing({ ingressClassName: 'nginx', rules: [{ host: 'a.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] }), want: [] },
    { name: 'rules or default backend', obj: ing({}), want: ['spec: Invalid value: null: either `defaultBackend` or `rules` must be specified'] },
    { name: 'pathType required', obj: ing({ rules: [{ http: { paths: [{ path: '/', backend }] } }] }),
      want: ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified'] },
    { name: 'pathType enum and path rules', obj: ing({ rules: [{ http: { paths: [{ path: '/a', pathType: 'Regex', backend }, { path: 'a//b', pathType: 'Exact', backend }] } }] }),
      want: ['spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
        'spec.rules[0].http.paths[1].path: Invalid value: "a//b": must be an absolute path',
        "spec.rules[0].http.paths[1].path: Invalid value: \"a//b\": must not contain '//'"] },
    { name: 'backends', obj: ing({ defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } }, rules: [{ host: '1.2.3.4', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: '' } } }] } }] }),
      want: ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number',
        'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
        'spec.rules[0].http.paths[0].backend.service.name: Required value',
        'spec.rules[0].http.paths[0].backend: Required value: port name or number is required'] },
    { name: 'class annotation must match', obj: ing({ ingressClassName: 'a', defaultBackend: backend }, { metadata: { name: 'i', namespace: 'default', annotations: { 'kubernetes.io/ingress.class': 'b' } } }),
      want: ['annotations.kubernetes.io/ingress.class: Invalid value: "b": must match `ingressClassName` when both are specified'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(fmt(ingresses.strategy.validate(ctx, c.obj)), c.want));

  it('status reset on create, kept on update; generation follows spec', () => {
    const i = ing({ defaultBackend: backend }, { status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } });
    ingresses.strategy.prepareForCreate(ctx, i);
    assert.deepEqual([i.status, i.metadata.generation], [{}, 1]);
    const old = ing({ defaultBackend: backend }, { metadata: { name: 'i', namespace: 'default', generation: 1 }, status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } });
    const next = ing({ defaultBackend: backend, ingressClassName: 'x' }, { metadata: { name: 'i', namespace: 'default', generation: 1 } });
    ingresses.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual([next.status, next.metadata.generation], [old.status, 2]);
  });
  it('status subresource keeps spec and validates the load balancer', () => {
    const old = ing({ defaultBackend: backend });
    const next = ing({}, { status: { loadBalancer: { ingress: [{ hostname: '10.0.0.1' }] } } });
    ingresses.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.spec, old.spec);
    assert.deepEqual(fmt(ingresses.statusStrategy.validateUpdate(ctx, next, old)),
      ['status.loadBalancer.ingress[0].hostname: Invalid value: "10.0.0.1": must be a DNS name, not an IP address']);
  });
  it('table: NAME CLASS HOSTS ADDRESS PORTS AGE', () => {
    const i = ing({ rules: [{ host: 'a' }, { host: 'b' }, {}, { host: 'c' }, { host: 'd' }], tls: [{}] },
      { metadata: { name: 'i', creationTimestamp: '2024-01-01T00:00:00Z' }, status: { loadBalancer: { ingress: [{ ip: '10.0.0.10' }, { hostname: 'lb.example.com' }] } } });
    assert.deepEqual(ingresses.table.map((c) => c.cell(i, Date.parse('2024-01-01T00:00:05Z'))),
      ['i', '<none>', 'a,b,c + 2 more...', '10.0.0.10,lb....', '80, 443', '5s']);
    assert.equal(ingresses.table[2]?.cell(ing({ defaultBackend: backend }), 0), '*');
  });
});

describe('ingressclasses', () => {
  const ic = (spec: IngressClass['spec'] & object): IngressClass => ({ metadata: { name: 'nginx', resourceVersion: '1' }, spec });
  const cases: { name: string; obj: IngressClass; want: string[] }[] = [
    { name: 'valid', obj: ic({ controller: 'k8s.io/ingress-nginx', parameters: { kind: 'Cfg', name: 'c', scope: 'Namespace', namespace: 'ns' } }), want: [] },
    { name: 'controller required', obj: ic({}), want: ['spec.controller: Required value'] },
    { name: 'controller domain-prefixed', obj: ic({ controller: 'nginx' }), want: ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")'] },
    { name: 'parameters', obj: ic({ controller: 'a.io/b', parameters: { kind: 'K', name: 'n', scope: 'Cluster', namespace: 'x' } }),
      want: ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(fmt(ingressClasses.strategy.validate(ctx, c.obj)), c.want));
  it('controller immutable; scope defaults to Cluster; table', () => {
    assert.deepEqual(fmt(ingressClasses.strategy.validateUpdate(ctx, ic({ controller: 'a.io/x' }), ic({ controller: 'a.io/y' }))),
      ['spec.controller: Invalid value: "a.io/x": field is immutable']);
    const d = ic({ controller: 'a.io/b', parameters: { apiGroup: 'k8s.example.com', kind: 'Cfg', name: 'c' } });
    ingressClasses.defaults(d);
    assert.equal(d.spec?.parameters?.scope, 'Cluster');
    assert.deepEqual(ingressClasses.table.map((c) => c.cell(d, 0)).slice(0, 3), ['nginx', 'a.io/b', 'Cfg.k8s.example.com/c']);
  });
});

describe('networkpolicies', () => {
  const np = (spec: NetworkPolicy['spec'] & object): NetworkPolicy => ({ metadata: { name: 'p', namespace: 'default' }, spec });
  const cases: { name: string; obj: NetworkPolicy; want: string[] }[] = [
    { name: 'valid', obj: np({ podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 80, endPort: 90 }] }] }), want: [] },
    { name: 'peers', obj: np({ ingress: [{ from: [{}, { podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } }] }] }),
      want: ['spec.ingress[0].from[0]: Required value: must specify a peer', 'spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer'] },
    { name: 'except outside cidr', obj: np({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24', '10.0.0.0/16'] } }] }] }),
      want: ['spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
        'spec.egress[0].to[0].ipBlock.except[1]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`'] },
    { name: 'ports and policy types', obj: np({ ingress: [{ ports: [{ protocol: 'ICMP', port: 'http', endPort: 3 }] }], policyTypes: ['Ingress', 'Sideways'] }),
      want: ['spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
        'spec.ingress[0].ports[0].endPort: Invalid value: 3: may not be specified when `port` is non-numeric',
        'spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(fmt(networkPolicies.strategy.validate(ctx, c.obj)), c.want));
  it('defaults protocol and policy types; table', () => {
    const p = np({ egress: [{ ports: [{ port: 53 }] }] });
    networkPolicies.defaults(p);
    assert.deepEqual([p.spec?.egress?.[0]?.ports?.[0]?.protocol, p.spec?.policyTypes], ['TCP', ['Ingress', 'Egress']]);
    assert.equal(networkPolicies.table[1]?.cell(p, 0), '<none>');
    assert.equal(networkPolicies.table[1]?.cell(np({ podSelector: { matchLabels: { app: 'web' } } }), 0), 'app=web');
  });
});

describe('ipaddresses and servicecidrs', () => {
  it('ipaddress name and parentRef', () => {
    const ip: IPAddress = { metadata: { name: '10.0.0.1' }, spec: { parentRef: { resource: 'services', namespace: 'default', name: 'web' } } };
    assert.deepEqual(fmt(ipAddresses.strategy.validate(ctx, ip)), []);
    assert.deepEqual(fmt(ipAddresses.strategy.validate(ctx, { metadata: { name: '10.0.0.01' }, spec: {} })),
      ['metadata.name: Invalid value: "10.0.0.01": must not have leading 0s', 'spec.parentRef: Required value']);
    assert.deepEqual(ipAddresses.table.map((c) => c.cell(ip, 0)), ['10.0.0.1', 'services/default/web']);
  });
  it('servicecidr cidrs', () => {
    const sc = (cidrs: string[]): ServiceCIDR => ({ metadata: { name: 'kubernetes', resourceVersion: '1' }, spec: { cidrs } });
    assert.deepEqual(fmt(serviceCIDRs.strategy.validate(ctx, sc(['10.96.0.0/12', 'fd00::/108']))), []);
    assert.deepEqual(fmt(serviceCIDRs.strategy.validate(ctx, sc([]))), ['spec.cidrs: Required value: at least one CIDR required']);
    assert.deepEqual(fmt(serviceCIDRs.strategy.validate(ctx, sc(['10.0.0.0/24', '10.1.0.0/24']))),
      ['spec.cidrs: Invalid value: ["10.0.0.0/24","10.1.0.0/24"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64']);
    assert.deepEqual(fmt(serviceCIDRs.strategy.validateUpdate(ctx, sc(['10.0.1.0/24']), sc(['10.0.0.0/24']))), ['spec.cidrs[0]: Invalid value: "10.0.1.0/24": field is immutable']);
    assert.deepEqual(fmt(serviceCIDRs.strategy.validateUpdate(ctx, sc(['10.0.0.0/24', 'fd00::/64']), sc(['10.0.0.0/24']))), []);
  });
  it('servicecidr status only through the subresource', () => {
    const old: ServiceCIDR = { metadata: { name: 'k' }, spec: { cidrs: ['10.0.0.0/24'] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    const next: ServiceCIDR = { metadata: { name: 'k' }, spec: { cidrs: ['10.0.0.0/24'] }, status: {} };
    serviceCIDRs.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.status, old.status);
    const st: ServiceCIDR = { metadata: { name: 'k' }, spec: { cidrs: ['10.9.0.0/24'] }, status: {} };
    serviceCIDRs.statusStrategy.prepareForUpdate(ctx, st, old);
    assert.deepEqual([st.spec, st.status], [old.spec, {}]);
  });
  it('group versions', () => {
    assert.deepEqual(networkingGroup.versions.map((v) => [v.version, v.resources.map((r) => r.resource)]),
      [['v1', ['ingressclasses', 'ingresses', 'ipaddresses', 'networkpolicies', 'servicecidrs']], ['v1beta1', ['ipaddresses', 'servicecidrs']]]);
  });
});
