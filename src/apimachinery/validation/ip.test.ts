import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldPath, formatFieldError } from '../errors/field-errors.ts';
import { formatIP, isValidCIDR, isValidIP, isValidIPForLegacyField, parseCIDRSloppy, parseIPSloppy } from './ip.ts';

describe('formatIP', () => {
  const cases = [
    { name: 'v4', in: '10.0.0.1', want: '10.0.0.1' },
    { name: 'v4 sloppy', in: '010.000.0.01', want: '10.0.0.1' },
    { name: 'v6 compress', in: '2001:DB8:0:0:0:0:0:1', want: '2001:db8::1' },
    { name: 'v6 all zero', in: '::', want: '::' },
    { name: 'v6 single zero not compressed', in: '2001:db8:0:1:1:1:1:1', want: '2001:db8:0:1:1:1:1:1' },
    { name: 'v4 mapped', in: '::ffff:1.2.3.4', want: '1.2.3.4' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const ip = parseIPSloppy(c.in);
      assert.ok(ip);
      assert.equal(formatIP(ip), c.want);
    });
  }
  it('rejects garbage', () => {
    for (const s of ['', '1.2.3', '256.1.1.1', '1::2::3', 'x', 'fe80::1%eth0']) assert.equal(parseIPSloppy(s), undefined, s);
  });
});

describe('isValidIP', () => {
  const p = fieldPath('spec', 'clusterIP');
  const cases = [
    { name: 'ok', in: '10.0.0.1', want: [] },
    { name: 'garbage', in: 'abc', want: ['spec.clusterIP: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'] },
    { name: 'leading zero', in: '10.0.0.01', want: ['spec.clusterIP: Invalid value: "10.0.0.01": must not have leading 0s'] },
    { name: 'not canonical', in: '2001:db8:0:0::1', want: ['spec.clusterIP: Invalid value: "2001:db8:0:0::1": must be in canonical form ("2001:db8::1")'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(isValidIP(p, c.in).map(formatFieldError), c.want));
  it('legacy sloppy accepts leading zeros', () => assert.deepEqual(isValidIPForLegacyField(p, '10.0.0.01', false), []));
});

describe('CIDR', () => {
  const p = fieldPath('cidr');
  it('parses and masks', () => {
    const c = parseCIDRSloppy('10.0.0.7/24');
    assert.ok(c);
    assert.equal(formatIP(c.network), '10.0.0.0');
    assert.equal(c.prefixLength, 24);
  });
  const cases = [
    { name: 'ok', in: '10.0.0.0/24', want: [] },
    { name: 'ok v6', in: '2001:db8::/64', want: [] },
    { name: 'bad', in: '10.0.0.0', want: ['cidr: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'] },
    { name: 'host bits', in: '10.0.0.1/24', want: ['cidr: Invalid value: "10.0.0.1/24": must not have bits set beyond the prefix length'] },
    { name: 'too long prefix', in: '10.0.0.0/33', want: ['cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(isValidCIDR(p, c.in).map(formatFieldError), c.want));
});
