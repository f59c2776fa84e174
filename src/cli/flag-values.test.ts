import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { firstIPInRange, formatDuration, parseCIDR, parseDuration, parsePortRange } from './flag-values.ts';

describe('parseDuration (time.ParseDuration)', () => {
  const cases: { name: string; input: string; wantMs: number }[] = [
    { name: 'zero', input: '0', wantMs: 0 },
    { name: 'seconds', input: '60s', wantMs: 60_000 },
    { name: 'minutes', input: '1m', wantMs: 60_000 },
    { name: 'compound', input: '1m30s', wantMs: 90_000 },
    { name: 'Go default form', input: '1h0m0s', wantMs: 3_600_000 },
    { name: 'fraction', input: '1.5h', wantMs: 5_400_000 },
    { name: 'milliseconds', input: '300ms', wantMs: 300 },
    { name: 'microseconds', input: '1500us', wantMs: 1.5 },
    { name: 'negative', input: '-2s', wantMs: -2000 },
    { name: 'leading dot', input: '.5s', wantMs: 500 },
  ];
  for (const c of cases) it(c.name, () => assert.equal(parseDuration(c.input), c.wantMs));

  const errors: { name: string; input: string; want: string }[] = [
    { name: 'empty', input: '', want: 'time: invalid duration ""' },
    { name: 'word', input: 'abc', want: 'time: invalid duration "abc"' },
    { name: 'no unit', input: '10', want: 'time: missing unit in duration "10"' },
    { name: 'unknown unit', input: '10d', want: 'time: unknown unit "d" in duration "10d"' },
  ];
  for (const c of errors) it(`rejects: ${c.name}`, () => assert.throws(() => parseDuration(c.input), { message: c.want }));
});

describe('formatDuration (time.Duration.String)', () => {
  const cases: { ms: number; want: string }[] = [
    { ms: 0, want: '0s' }, { ms: 60_000, want: '1m0s' }, { ms: 3_600_000, want: '1h0m0s' }, { ms: 300_000, want: '5m0s' },
    { ms: 90_500, want: '1m30.5s' }, { ms: 300, want: '300ms' }, { ms: -1000, want: '-1s' },
  ];
  for (const c of cases) it(c.want, () => assert.equal(formatDuration(c.ms), c.want));
});

describe('parseCIDR and firstIPInRange', () => {
  const cases: { name: string; input: string; want: string; first: string; family: 4 | 6 }[] = [
    { name: 'default service range', input: '10.0.0.0/24', want: '10.0.0.0/24', first: '10.0.0.1', family: 4 },
    { name: 'host bits are masked', input: '10.96.5.7/12', want: '10.96.0.0/12', first: '10.96.0.1', family: 4 },
    { name: 'IPv6', input: 'fd00:10:96::/112', want: 'fd00:10:96::/112', first: 'fd00:10:96::1', family: 6 },
    { name: 'IPv6 expanded', input: '2001:db8:0:0:0:0:0:0/108', want: '2001:db8::/108', first: '2001:db8::1', family: 6 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const cidr = parseCIDR(c.input);
      assert.equal(cidr.text, c.want);
      assert.equal(cidr.family, c.family);
      assert.equal(firstIPInRange(cidr), c.first);
    });
  }
  for (const bad of ['10.0.0.0', '10.0.0.0/33', 'abc/8', '10.0.0.256/24', '::1/129']) {
    it(`rejects ${bad}`, () => assert.throws(() => parseCIDR(bad), { message: `invalid CIDR address: ${bad}` }));
  }
});

describe('parsePortRange (utilnet.PortRange)', () => {
  const cases: { name: string; input: string; want: { base: number; size: number }; text: string }[] = [
    { name: 'hyphen', input: '30000-32767', want: { base: 30000, size: 2768 }, text: '30000-32767' },
    { name: 'plus', input: '30000+10', want: { base: 30000, size: 11 }, text: '30000-30010' },
    { name: 'single', input: '8080', want: { base: 8080, size: 1 }, text: '8080-8080' },
    { name: 'empty', input: '', want: { base: 0, size: 0 }, text: '' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = parsePortRange(c.input);
      assert.deepEqual(r, c.want);
    });
  }
  const errors: { name: string; input: string; want: string }[] = [
    { name: 'not a number', input: 'a-b', want: 'strconv.Atoi: parsing "a": invalid syntax' },
    { name: 'too high', input: '30000-70000', want: 'the port range cannot be greater than 65535: 30000-70000' },
    { name: 'reversed', input: '200-100', want: 'end port cannot be less than start port: 200-100' },
    { name: 'both notations', input: '1-2+3', want: 'unable to parse port range: 1-2+3' },
  ];
  for (const c of errors) it(`rejects: ${c.name}`, () => assert.throws(() => parsePortRange(c.input), { message: c.want }));
});
