// The networking rules brought in line with kube-apiserver v1.36 (each found by the corpus of
// e2e/networking-validation.test.ts): strict IP/CIDR parsing, relaxed service names, the Go
// values kube prints, the metadata checks kube's update validators repeat, and the warnings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { ingresses } from './ingress/ingress.ts';
import { ingressClasses } from './ingressclass/ingressclass.ts';
import { ipAddresses } from './ipaddress/ipaddress.ts';
import { networkPolicies } from './networkpolicy/networkpolicy.ts';
import { serviceCIDRs } from './servicecidr/servicecidr.ts';
import type { Ingress, IngressClass, IPAddress, NetworkPolicy, ParentReference, ServiceCIDR } from './v1/types.ts';

const ctx = systemContext('default');
const fmt = (errs: readonly FieldError[]): string[] => errs.map(formatFieldError);
const meta = { name: 'x', namespace: 'default', resourceVersion: '1' };
const BAD_LABEL = 'metadata.labels: Invalid value: "bad value": a valid label must be an empty string or consist of alphanumeric characters, ' +
  "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('ingress', () => {
  const ing = (status: Ingress['status'], backendName = 'web'): Ingress => ({
    metadata: meta, spec: { defaultBackend: { service: { name: backendName, port: { number: 80 } } } }, ...(status === undefined ? {} : { status }),
  });
  const cases: { name: string; status: Ingress['status']; want: string[] }[] = [
    { name: 'leading zeros refused', status: { loadBalancer: { ingress: [{ ip: '001.2.3.4' }] } },
      want: ['status.loadBalancer.ingress[0].ip: Invalid value: "001.2.3.4": must not have leading 0s'] },
    { name: 'IPv4-mapped IPv6 refused', status: { loadBalancer: { ingress: [{ ip: '::ffff:1.2.3.4' }] } },
      want: ['status.loadBalancer.ingress[0].ip: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address'] },
    { name: 'an old value is kept', status: { loadBalancer: { ingress: [{ ip: '010.0.0.1' }] } }, want: [] },
  ];
  for (const c of cases) {
    it(`status: ${c.name}`, () => {
      const old = ing({ loadBalancer: { ingress: [{ ip: '010.0.0.1' }] } });
      assert.deepEqual(fmt(ingresses.statusStrategy.validateUpdate(ctx, ing(c.status), old)), c.want);
    });
  }
  it('status warns of a non-canonical IPv6 address', () => {
    const next = ing({ loadBalancer: { ingress: [{ ip: '2001:db8:0::1' }] } });
    assert.deepEqual(ingresses.statusStrategy.warningsOnUpdate?.(ctx, next, ing(undefined)),
      ['status.loadBalancer.ingress[0]: IPv6 address "2001:db8:0::1" should be in RFC 5952 canonical format ("2001:db8::1")']);
  });
  it('service names are DNS labels (RelaxedServiceNameValidation)', () => {
    assert.deepEqual(fmt(ingresses.strategy.validate(ctx, ing(undefined, '1abc'))), []);
  });
  it('an update checks the metadata update and the new metadata, as ValidateIngressUpdate', () => {
    const next: Ingress = { ...ing(undefined), metadata: { ...meta, labels: { a: 'bad value' } } };
    assert.deepEqual(fmt(ingresses.strategy.validateUpdate(ctx, next, ing(undefined))), [BAD_LABEL, BAD_LABEL]);
  });
});

describe('ingressclass', () => {
  it('an update runs the create validation too', () => {
    const ic = (labels: Record<string, string>): IngressClass => ({ metadata: { name: 'c', resourceVersion: '1', labels }, spec: { controller: 'a.io/b' } });
    assert.deepEqual(fmt(ingressClasses.strategy.validateUpdate(ctx, ic({ a: 'bad value' }), ic({}))), [BAD_LABEL, BAD_LABEL]);
  });
});

describe('networkpolicy', () => {
  const np = (spec: NetworkPolicy['spec'] & object): NetworkPolicy => ({ metadata: meta, spec });
  const cases: { name: string; spec: NetworkPolicy['spec'] & object; want: string[] }[] = [
    { name: 'endPort below port reports the port', spec: { podSelector: {}, ingress: [{ ports: [{ port: 80, endPort: 79 }] }] },
      want: ['spec.ingress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to `port`'] },
    { name: 'cidr with host bits', spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.1/8' } }] }] },
      want: ['spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length'] },
    { name: 'cidr with leading zeros', spec: { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '010.0.0.0/8' } }] }] },
      want: ['spec.egress[0].to[0].ipBlock.cidr: Invalid value: "010.0.0.0/8": must not have leading 0s in IP or prefix length'] },
    { name: 'IPv4-mapped cidr', spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '::ffff:10.0.0.0/104' } }] }] },
      want: ['spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "::ffff:10.0.0.0/104": must not have an IPv4-mapped IPv6 address'] },
    { name: 'except with host bits', spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.1/16'] } }] }] },
      want: ['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.1.0.1/16": must not have bits set beyond the prefix length'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(fmt(networkPolicies.strategy.validate(ctx, np(c.spec))), c.want));
  it('a CIDR of the old object stays allowed', () => {
    const old = np({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.1/8' } }] }] });
    assert.deepEqual(fmt(networkPolicies.strategy.validateUpdate(ctx, old, old)), []);
  });
  it('warns of non-canonical IPv6 CIDRs', () => {
    const obj = np({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '2001:db8:0::/48' } }] }] });
    assert.deepEqual(networkPolicies.strategy.warningsOnCreate?.(ctx, obj),
      ['spec.ingress[0].from[0].ipBlock.cidr: IPv6 CIDR value "2001:db8:0::/48" should be in RFC 5952 canonical format ("2001:db8::/48")']);
  });
});

describe('ipaddress', () => {
  const ip = (parentRef: ParentReference | undefined): IPAddress =>
    ({ metadata: { name: '10.0.0.1', resourceVersion: '1' }, spec: parentRef === undefined ? {} : { parentRef } });
  it('generateName is the name (no suffix), then refused unless an IP', () => {
    const obj: IPAddress = { metadata: { generateName: '10.0.0.' }, spec: { parentRef: { resource: 'services', name: 's' } } };
    ipAddresses.strategy.prepareForCreate(ctx, obj);
    assert.equal(obj.metadata.name, '10.0.0.');
  });
  it('parentRef changes print the Go struct; removal is also Required', () => {
    const old = ip({ resource: 'services', namespace: 'default', name: 'a' });
    assert.deepEqual(fmt(ipAddresses.strategy.validateUpdate(ctx, ip({ resource: 'services', namespace: 'default', name: 'b' }), old)),
      ['spec.parentRef: Invalid value: {"Group":"","Resource":"services","Namespace":"default","Name":"b"}: field is immutable']);
    assert.deepEqual(fmt(ipAddresses.strategy.validateUpdate(ctx, ip(undefined), old)),
      ['spec.parentRef: Required value', 'spec.parentRef: Invalid value: null: field is immutable']);
    assert.deepEqual(fmt(ipAddresses.strategy.validateUpdate(ctx, ip({ group: '', resource: 'services', namespace: 'default', name: 'a' }), old)), []);
  });
});

describe('servicecidr', () => {
  const sc = (cidrs: string[], labels: Record<string, string> = {}): ServiceCIDR => ({ metadata: { name: 'c', resourceVersion: '1', labels }, spec: { cidrs } });
  it('more than two CIDRs print the Go spec', () => {
    assert.deepEqual(fmt(serviceCIDRs.strategy.validate(ctx, sc(['10.0.0.0/24', 'fd00::/64', '10.1.0.0/24']))),
      ['spec.cidrs: Invalid value: {"CIDRs":["10.0.0.0/24","fd00::/64","10.1.0.0/24"]}: may only hold up to 2 values']);
  });
  it('update and status update check the metadata update', () => {
    assert.deepEqual(fmt(serviceCIDRs.strategy.validateUpdate(ctx, sc(['10.0.0.0/24'], { a: 'bad value' }), sc(['10.0.0.0/24']))), [BAD_LABEL]);
    assert.deepEqual(fmt(serviceCIDRs.statusStrategy.validateUpdate(ctx, sc(['10.0.0.0/24'], { a: 'bad value' }), sc(['10.0.0.0/24']))), [BAD_LABEL]);
  });
});
