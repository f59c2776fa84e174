import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldPath } from '../errors/field-errors.ts';
import { cidrWarnings, ipWarnings } from './ip-warnings.ts';

describe('ipWarnings and cidrWarnings', () => {
  const cases: { name: string; got: () => string[]; want: string[] }[] = [
    { name: 'canonical IPv4', got: () => ipWarnings(fieldPath('x'), '10.0.0.1'), want: [] },
    { name: 'not an IP', got: () => ipWarnings(fieldPath('x'), 'nope'), want: [] },
    { name: 'IPv4 with leading zeros', got: () => ipWarnings(fieldPath('spec', 'externalIPs').index(0), '010.0.0.1'),
      want: ['spec.externalIPs[0]: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"'] },
    { name: 'IPv4-mapped IPv6', got: () => ipWarnings(fieldPath('x'), '::ffff:1.2.3.4'),
      want: ['x: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"'] },
    { name: 'IPv6 not in RFC 5952 form', got: () => ipWarnings(fieldPath('x'), '2001:DB8::1'),
      want: ['x: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")'] },
    { name: 'canonical CIDR', got: () => cidrWarnings(fieldPath('x'), '10.0.0.0/8'), want: [] },
    { name: 'ambiguous CIDR', got: () => cidrWarnings(fieldPath('x'), '10.0.0.1/8'),
      want: ['x: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)'] },
    { name: 'CIDR length with a leading zero', got: () => cidrWarnings(fieldPath('x'), '2001:db8::/064'),
      want: ['x: non-standard CIDR value "2001:db8::/064" will be considered invalid in a future Kubernetes release: use "2001:db8::/64"'] },
    { name: 'IPv6 CIDR not in RFC 5952 form', got: () => cidrWarnings(fieldPath('x'), '2001:DB8::/64'),
      want: ['x: IPv6 CIDR value "2001:DB8::/64" should be in RFC 5952 canonical format ("2001:db8::/64")'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(c.got(), c.want));
});
