// One case per rule of kube v1.36's Service validation (pkg/apis/core/validation: validateService,
// ValidateServiceUpdate, ValidateServiceStatusUpdate) that kapi lacked; paths and messages are kube's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { Service } from '../v1/types.ts';
import { defaultService } from './defaults.ts';
import { validateService, validateServiceStatusUpdate, validateServiceUpdate } from './validation.ts';
import { serviceWarnings } from './warnings.ts';

function svc(mutate: (s: Service) => void = () => {}): Service {
  const s: Service = { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }], clusterIP: '10.0.0.5' } };
  mutate(s);
  defaultService(s);
  if (s.spec.type !== 'ExternalName' && s.spec.clusterIP !== undefined) s.spec.clusterIPs ??= [s.spec.clusterIP];
  if (s.spec.type !== 'ExternalName') { s.spec.ipFamilies ??= ['IPv4']; s.spec.ipFamilyPolicy ??= 'SingleStack'; }
  return s;
}
const lb = (s: Service): void => { s.spec.type = 'LoadBalancer'; };
const ONLY_LB = "Forbidden: may only be used when `type` is 'LoadBalancer'";
const CIDR_EXAMPLE = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

describe('service validation: kube rules', () => {
  const cases: { name: string; mutate: (s: Service) => void; want: string[] }[] = [
    { name: 'topology-mode unlike topology-aware-hints',
      mutate: (s) => { s.metadata.annotations = { 'service.kubernetes.io/topology-mode': 'Auto', 'service.kubernetes.io/topology-aware-hints': 'Disabled' }; },
      want: ['metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified'] },
    { name: 'topology annotations that agree', mutate: (s) => { s.metadata.annotations = { 'service.kubernetes.io/topology-mode': 'Auto', 'service.kubernetes.io/topology-aware-hints': 'Auto' }; }, want: [] },
    { name: 'externalIP with leading zeros (strict IP validation)', mutate: (s) => { s.spec.externalIPs = ['1.2.3.04']; },
      want: ['spec.externalIPs[0]: Invalid value: "1.2.3.04": must not have leading 0s'] },
    { name: 'clusterIP with leading zeros (strict IP validation)', mutate: (s) => { s.spec.clusterIP = '10.0.0.040'; },
      want: ['spec.clusterIPs[0]: Invalid value: "10.0.0.040": must not have leading 0s'] },
    { name: 'clusterIP IPv4-mapped IPv6', mutate: (s) => { s.spec.clusterIP = '::ffff:10.0.0.41'; },
      want: ['spec.clusterIPs[0]: Invalid value: "::ffff:10.0.0.41": must not be an IPv4-mapped IPv6 address'] },
    { name: 'externalIP unspecified', mutate: (s) => { s.spec.externalIPs = ['0.0.0.0']; },
      want: ['spec.externalIPs[0]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)'] },
    { name: 'externalIP loopback', mutate: (s) => { s.spec.externalIPs = ['127.0.0.1']; },
      want: ['spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)'] },
    { name: 'externalIP link-local', mutate: (s) => { s.spec.externalIPs = ['fe80::1']; },
      want: ['spec.externalIPs[0]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)'] },
    { name: 'externalIP link-local multicast', mutate: (s) => { s.spec.externalIPs = ['224.0.0.1']; },
      want: ['spec.externalIPs[0]: Invalid value: "224.0.0.1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'] },
    { name: 'loadBalancerSourceRanges on a ClusterIP', mutate: (s) => { s.spec.loadBalancerSourceRanges = ['10.0.0.0/8']; },
      want: [`spec.LoadBalancerSourceRanges: ${ONLY_LB}`] },
    { name: 'loadBalancerSourceRanges invalid', mutate: (s) => { lb(s); s.spec.loadBalancerSourceRanges = [' bogus ']; },
      want: [`spec.LoadBalancerSourceRanges[0]: Invalid value: "bogus": ${CIDR_EXAMPLE}`] },
    { name: 'loadBalancerSourceRanges with host bits', mutate: (s) => { lb(s); s.spec.loadBalancerSourceRanges = ['10.0.0.1/8']; },
      want: ['spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length'] },
    { name: 'source-ranges annotation invalid', mutate: (s) => { lb(s); s.metadata.annotations = { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8, bogus' }; },
      want: [`metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "bogus": ${CIDR_EXAMPLE}`] },
    { name: 'source-ranges annotation on a ClusterIP', mutate: (s) => { s.metadata.annotations = { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8' }; },
      want: [`metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: ${ONLY_LB}`] },
    { name: 'allocateLoadBalancerNodePorts on a ClusterIP', mutate: (s) => { s.spec.allocateLoadBalancerNodePorts = false; },
      want: [`spec.allocateLoadBalancerNodePorts: ${ONLY_LB}`] },
    { name: 'loadBalancerClass on a ClusterIP', mutate: (s) => { s.spec.loadBalancerClass = 'example.com/lb'; },
      want: [`spec.loadBalancerClass: ${ONLY_LB}`] },
    { name: 'loadBalancerClass not a qualified name', mutate: (s) => { lb(s); s.spec.loadBalancerClass = 'bad class'; },
      want: ["spec.loadBalancerClass: Invalid value: \"bad class\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"] },
    { name: 'port 10250 on a LoadBalancer (no kubelet-port rule in v1.36)', mutate: (s) => { lb(s); s.spec.ports = [{ port: 10250 }]; }, want: [] },
    { name: 'healthCheckNodePort without Local policy', mutate: (s) => { s.spec.type = 'NodePort'; s.spec.healthCheckNodePort = 30100; },
      want: ["spec.healthCheckNodePort: Invalid value: 30100: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"] },
    { name: 'healthCheckNodePort missing', mutate: (s) => { lb(s); s.spec.externalTrafficPolicy = 'Local'; }, want: ['spec.healthCheckNodePort: Required value'] },
    { name: 'healthCheckNodePort out of range', mutate: (s) => { lb(s); s.spec.externalTrafficPolicy = 'Local'; s.spec.healthCheckNodePort = 70000; },
      want: ['spec.healthCheckNodePort: Invalid value: 70000: must be between 1 and 65535, inclusive'] },
    { name: 'trafficDistribution unsupported', mutate: (s) => { s.spec.trafficDistribution = 'Bogus'; },
      want: ['spec.trafficDistribution: Unsupported value: "Bogus": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"'] },
    { name: 'trafficDistribution PreferSameNode', mutate: (s) => { s.spec.trafficDistribution = 'PreferSameNode'; }, want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateService(svc(c.mutate)).map(formatFieldError), c.want));
});

describe('service update validation: kube rules', () => {
  const cases: { name: string; old: (s: Service) => void; mutate: (s: Service) => void; want: string[] }[] = [
    { name: 'loadBalancerClass changed', old: (s) => { lb(s); s.spec.loadBalancerClass = 'example.com/a'; },
      mutate: (s) => { lb(s); s.spec.loadBalancerClass = 'example.com/b'; },
      want: ['spec.loadBalancerClass: Invalid value: "example.com/b": may not change once set'] },
    { name: 'loadBalancerClass set on an existing LoadBalancer', old: lb,
      mutate: (s) => { lb(s); s.spec.loadBalancerClass = 'example.com/b'; },
      want: ['spec.loadBalancerClass: Invalid value: "example.com/b": may not change once set'] },
    { name: 'loadBalancerClass set while becoming a LoadBalancer', old: () => {},
      mutate: (s) => { lb(s); s.spec.loadBalancerClass = 'example.com/b'; }, want: [] },
    // kube checks the class in ValidateServiceUpdate and again in validateService
    { name: 'loadBalancerClass on a ClusterIP, reported twice as kube does', old: () => {},
      mutate: (s) => { s.spec.loadBalancerClass = 'example.com/b'; }, want: [`spec.loadBalancerClass: ${ONLY_LB}`, `spec.loadBalancerClass: ${ONLY_LB}`] },
    { name: 'healthCheckNodePort changed', old: (s) => { lb(s); s.spec.externalTrafficPolicy = 'Local'; s.spec.healthCheckNodePort = 31000; },
      mutate: (s) => { lb(s); s.spec.externalTrafficPolicy = 'Local'; s.spec.healthCheckNodePort = 31001; },
      want: ['spec.healthCheckNodePort: Forbidden: field is immutable'] },
    { name: 'externalIP the old service held stays valid', old: (s) => { s.spec.externalIPs = ['1.2.3.04']; },
      mutate: (s) => { s.spec.externalIPs = ['1.2.3.04']; }, want: [] },
    { name: 'source ranges the old service held stay valid', old: (s) => { lb(s); s.spec.loadBalancerSourceRanges = ['10.0.0.1/8']; },
      mutate: (s) => { lb(s); s.spec.loadBalancerSourceRanges = ['10.0.0.1/8']; }, want: [] },
    { name: 'an unchanged source-ranges annotation is not re-validated',
      old: (s) => { lb(s); s.metadata.annotations = { 'service.beta.kubernetes.io/load-balancer-source-ranges': 'bogus' }; },
      mutate: (s) => { lb(s); s.metadata.annotations = { 'service.beta.kubernetes.io/load-balancer-source-ranges': 'bogus' }; }, want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateServiceUpdate(svc(c.mutate), svc(c.old)).map(formatFieldError), c.want));
});

describe('service status validation: kube rules', () => {
  const withIngress = (ingress: NonNullable<NonNullable<NonNullable<Service['status']>['loadBalancer']>['ingress']>, type = 'LoadBalancer'): Service =>
    svc((s) => { s.spec.type = type; s.status = { loadBalancer: { ingress } }; });
  const cases: { name: string; svc: Service; old?: Service; want: string[] }[] = [
    { name: 'ingress on a ClusterIP', svc: withIngress([{ ip: '1.2.3.4', ipMode: 'VIP' }], 'ClusterIP'),
      want: ["status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"] },
    { name: 'ipMode unsupported', svc: withIngress([{ ip: '1.2.3.4', ipMode: 'Bogus' }]),
      want: ['status.loadBalancer.ingress[0].ipMode: Unsupported value: "Bogus": supported values: "Proxy", "VIP"'] },
    { name: 'hostname an IP', svc: withIngress([{ hostname: '1.2.3.4' }]),
      want: ['status.loadBalancer.ingress[0].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address'] },
    { name: 'ingress IP with leading zeros', svc: withIngress([{ ip: '1.2.3.04', ipMode: 'VIP' }]),
      want: ['status.loadBalancer.ingress[0].ip: Invalid value: "1.2.3.04": must not have leading 0s'] },
    { name: 'ingress IP the old status held stays valid', svc: withIngress([{ ip: '1.2.3.04', ipMode: 'VIP' }]),
      old: withIngress([{ ip: '1.2.3.04', ipMode: 'VIP' }]), want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateServiceStatusUpdate(c.svc, c.old).map(formatFieldError), c.want));
});

describe('service warnings: kube rules', () => {
  const DEPRECATED = 'spec.externalIPs is deprecated and may no longer be implemented in some clusters';
  const cases: { name: string; mutate: (s: Service) => void; want: string[] }[] = [
    { name: 'externalIPs are deprecated', mutate: (s) => { s.spec.externalIPs = ['1.2.3.4']; }, want: [DEPRECATED] },
    { name: 'not on a headless service (ignored there instead)', mutate: (s) => { s.spec.clusterIP = 'None'; s.spec.externalIPs = ['1.2.3.4']; },
      want: ['spec.externalIPs is ignored for headless services'] },
    { name: 'not on ExternalName (ignored there instead)', mutate: (s) => { s.spec.type = 'ExternalName'; s.spec.externalName = 'example.com'; s.spec.externalIPs = ['1.2.3.4']; },
      want: ['spec.externalIPs is ignored when spec.type is "ExternalName"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(serviceWarnings(svc(c.mutate)), c.want));
});
