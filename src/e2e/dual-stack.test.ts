// Dual-stack services as kube-apiserver v1.36 serves them with two --service-cluster-ip-range
// CIDRs: the ipFamilyPolicy/ipFamilies scenarios of testing/dual-stack.ts give the same policies,
// families and (per family, in range) cluster IPs as kube's recorded answers, the default
// ServiceCIDR holds both CIDRs and is Ready, and every allocated IP has its IPAddress object.
// The refusals (single-stack and dual-stack clusters) are corpora of the validation harness.
// Allocation is random in kube and kapi alike, so addresses are compared by family and range.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DUAL_STACK_FLAGS, DUAL_STACK_RANGES, DUAL_STACK_V6_PRIMARY_FLAGS, observeDualStack, type DualStackReport } from './testing/dual-stack.ts';
import { loadAdminCredentials, rawRequest, type RawRequest, type RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle } from './testing/oracle.ts';
import { startCliServer, startSuite } from './testing/suite.ts';
import { describeValidationCorpus, post, put, type ValidationCase } from './testing/validation-differential.ts';

const recording = process.env['KAPI_RECORD'] === '1' && oracleUnavailable() === undefined;
const withoutIPAddresses = ({ ipAddresses: _a, ...rest }: DualStackReport): Omit<DualStackReport, 'ipAddresses'> => rest;

const CLUSTERS = [
  { name: 'IPv4 primary', flags: DUAL_STACK_FLAGS, fixture: new URL('./testing/fixtures/dual-stack-kube.json', import.meta.url) },
  { name: 'IPv6 primary', flags: DUAL_STACK_V6_PRIMARY_FLAGS, fixture: new URL('./testing/fixtures/dual-stack-v6-primary-kube.json', import.meta.url) },
];

for (const cluster of CLUSTERS) {
  describe(`dual-stack services (${cluster.name}) agree with kube-apiserver v1.36`, () => {
    let kapi: DualStackReport;
    before(async () => {
      const suite = await startSuite({ flags: cluster.flags });
      try { kapi = await observeDualStack(suite.request); } finally { await suite.close(); }
    });

    it('policies, families and cluster IPs as kube answered (recorded)', { skip: recording ? 'KAPI_RECORD=1' : false }, () => {
      assert.ok(existsSync(cluster.fixture), 'record with KAPI_RECORD=1 and the oracle built');
      assert.deepEqual(withoutIPAddresses(kapi), JSON.parse(readFileSync(cluster.fixture, 'utf8')));
    });

    it('every allocated cluster IP, and no other, has its IPAddress object', () => {
      assert.equal(kapi.ipAddresses, 'exactly the allocated addresses');
    });

    it('the live oracle answers as kapi', { skip: oracleUnavailable() ?? false }, async (t) => {
      const oracle = await startOracle({ flags: cluster.flags });
      let kube: DualStackReport;
      try { kube = await observeDualStack(oracle.request); } finally { await oracle.stop(); }
      // kube v1.36 sometimes leaves the secondary address of an upgraded service without its
      // IPAddress object; kapi always writes it, so that part is reported, not compared.
      t.diagnostic(`kube's IPAddress objects: ${kube.ipAddresses}`);
      if (recording) writeFileSync(cluster.fixture, `${JSON.stringify(withoutIPAddresses(kube), null, 1)}\n`);
      assert.deepEqual(withoutIPAddresses(kapi), withoutIPAddresses(kube));
    });
  });
}

describe('a single-stack cluster restarted dual-stack', () => {
  it('the default ServiceCIDR gains the second CIDR and services may then upgrade', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-dual-stack-'));
    try {
      const run = async <T>(flags: readonly string[], body: (send: (req: RawRequest) => Promise<RawResponse>) => Promise<T>): Promise<T> => {
        const server = await startCliServer(dir, flags);
        try {
          const creds = await loadAdminCredentials(server.kubeconfigPath);
          return await body((req) => rawRequest(creds, req));
        } finally {
          await server.stop('SIGTERM');
        }
      };
      const svcPath = '/api/v1/namespaces/default/services/web';
      await run(['--service-cluster-ip-range', '10.0.0.0/24'], async (send) => {
        const r = await send(post('/api/v1/namespaces/default/services', service('web', {})));
        assert.equal(r.status, 201, r.text);
      });
      await run(DUAL_STACK_FLAGS, async (send) => {
        const cidr = (await send({ method: 'GET', path: '/apis/networking.k8s.io/v1/servicecidrs/kubernetes' })).json() as { spec: { cidrs: string[] } };
        assert.deepEqual(cidr.spec.cidrs, [...DUAL_STACK_RANGES]);
        const old = (await send({ method: 'GET', path: svcPath })).json() as { spec: Record<string, unknown> };
        const r = await send(put(svcPath, { ...old, spec: { ...old.spec, ipFamilyPolicy: 'RequireDualStack' } }));
        assert.equal(r.status, 200, r.text);
        const spec = (r.json() as { spec: { ipFamilies: string[]; clusterIPs: string[] } }).spec;
        assert.deepEqual(spec.ipFamilies, ['IPv4', 'IPv6']);
        const ip = await send({ method: 'GET', path: `/apis/networking.k8s.io/v1/ipaddresses/${spec.clusterIPs[1] ?? ''}` });
        assert.equal(ip.status, 200, ip.text);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const SVC = (ns: string): string => `/api/v1/namespaces/${ns}/services`;
const service = (name: string, spec: Record<string, unknown>): unknown =>
  ({ metadata: { name }, spec: { selector: { app: 'x' }, ports: [{ port: 80 }], ...spec } });
const create = (spec: Record<string, unknown>) => (name: string, ns: string): readonly RawRequest[] => [post(SVC(ns), service(name, spec))];
/** The same create with ?dryRun=All: kube's dry-run allocator checks the range only. */
const dryRun = (spec: Record<string, unknown>) => (name: string, ns: string): readonly RawRequest[] => [post(`${SVC(ns)}?dryRun=All`, service(name, spec))];
/** Creates a service with `spec`, then PUTs it back with `spec` merged over the stored spec (IPs as allocated unless named). */
const update = (spec: Record<string, unknown>, change: Record<string, unknown>) => (name: string, ns: string): readonly RawRequest[] =>
  [post(SVC(ns), service(name, spec)), put(`${SVC(ns)}/${name}`, service(name, { ...spec, ...change }))];

/** Refusals of a single-stack (IPv4) cluster: the second family is not configured. */
const SINGLE_STACK_CASES: readonly ValidationCase[] = [
  { name: 'RequireDualStack', requests: create({ ipFamilyPolicy: 'RequireDualStack' }) },
  { name: 'RequireDualStack naming IPv6 first', requests: create({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4'] }) },
  { name: 'PreferDualStack gets one family', requests: create({ ipFamilyPolicy: 'PreferDualStack' }) },
  { name: 'ipFamilies IPv6', requests: create({ ipFamilies: ['IPv6'] }) },
  { name: 'PreferDualStack with IPv6 first', requests: create({ ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv6'] }) },
  { name: 'an IPv6 clusterIP', requests: create({ clusterIP: 'fd00::51', clusterIPs: ['fd00::51'] }) },
  { name: 'two clusterIPs', requests: create({ ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10', 'fd00::50'] }) },
  { name: 'an IPv4 clusterIP outside the range', requests: create({ clusterIP: '10.9.0.5', clusterIPs: ['10.9.0.5'] }) },
  { name: 'the network address', requests: create({ clusterIP: '10.0.0.0', clusterIPs: ['10.0.0.0'] }) },
  { name: 'the broadcast address', requests: create({ clusterIP: '10.0.0.255', clusterIPs: ['10.0.0.255'] }) },
  { name: 'a clusterIP taken', requests: (n, ns) => [post(SVC(ns), service(`${n}-a`, { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] })),
    post(SVC(ns), service(n, { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] }))] },
  { name: 'a clusterIP an IPAddress object holds', requests: (n, ns) => [
    post('/apis/networking.k8s.io/v1/ipaddresses', { metadata: { name: '10.0.0.7' }, spec: { parentRef: { group: 'gateway.networking.k8s.io', resource: 'gateways', namespace: ns, name: 'gw' } } }),
    post(SVC(ns), service(n, { clusterIP: '10.0.0.7', clusterIPs: ['10.0.0.7'] }))] },
  { name: 'an IPAddress object for an address a service holds', requests: (n, ns) => [
    post(SVC(ns), service(n, { clusterIP: '10.0.0.8', clusterIPs: ['10.0.0.8'] })),
    post('/apis/networking.k8s.io/v1/ipaddresses', { metadata: { name: '10.0.0.8' }, spec: { parentRef: { resource: 'services', namespace: ns, name: 'other' } } })] },
  { name: 'dry run: a clusterIP an IPAddress object holds', requests: (n, ns) => [
    post('/apis/networking.k8s.io/v1/ipaddresses', { metadata: { name: '10.0.0.9' }, spec: { parentRef: { resource: 'gateways', namespace: ns, name: 'gw' } } }),
    post(`${SVC(ns)}?dryRun=All`, service(n, { clusterIP: '10.0.0.9', clusterIPs: ['10.0.0.9'] }))] },
  { name: 'dry run: an IPv4 clusterIP outside the range', requests: dryRun({ clusterIP: '10.9.0.5', clusterIPs: ['10.9.0.5'] }) },
  { name: 'dry run: the network address', requests: dryRun({ clusterIP: '10.0.0.0', clusterIPs: ['10.0.0.0'] }) },
  { name: 'dry run: a dynamic address', requests: dryRun({}), keep: (o) => (o['spec'] as Record<string, unknown>)['clusterIPs'] },
  { name: 'dry run: a clusterIP taken', requests: (n, ns) => [post(SVC(ns), service(`${n}-a`, { clusterIP: '10.0.0.6', clusterIPs: ['10.0.0.6'] })),
    post(`${SVC(ns)}?dryRun=All`, service(n, { clusterIP: '10.0.0.6', clusterIPs: ['10.0.0.6'] }))] },
  { name: 'upgrade to RequireDualStack', requests: (n, ns) => [post(SVC(ns), service(n, {})), put(`${SVC(ns)}/${n}`, service(n, { ipFamilyPolicy: 'RequireDualStack' }))] },
];

/** Refusals of a dual-stack cluster: families, addresses and the upgrade/downgrade rules. */
const DUAL_STACK_CASES: readonly ValidationCase[] = [
  { name: 'SingleStack with two families', requests: create({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] }) },
  { name: 'SingleStack with two clusterIPs', requests: create({ ipFamilyPolicy: 'SingleStack', clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10', 'fd00::50'] }) },
  { name: 'two clusterIPs of one family', requests: create({ ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10', '10.0.0.11'] }) },
  { name: 'clusterIPs against ipFamilies', requests: create({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4'], clusterIP: '10.0.0.12', clusterIPs: ['10.0.0.12', 'fd00::52'] }) },
  { name: 'duplicate families', requests: create({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv4'] }) },
  { name: 'three families', requests: create({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6', 'IPv4'] }) },
  { name: 'an IPv6 clusterIP outside the range', requests: create({ clusterIP: 'fd01::51', clusterIPs: ['fd01::51'] }) },
  { name: 'a secondary clusterIP outside the range', requests: create({ ipFamilyPolicy: 'PreferDualStack', clusterIP: '10.0.0.13', clusterIPs: ['10.0.0.13', 'fd01::53'] }) },
  { name: 'dry run: an IPv6 clusterIP outside the range', requests: dryRun({ clusterIP: 'fd01::51', clusterIPs: ['fd01::51'] }) },
  { name: 'dry run: a secondary clusterIP outside the range', requests: dryRun({ ipFamilyPolicy: 'PreferDualStack', clusterIP: '10.0.0.13', clusterIPs: ['10.0.0.13', 'fd01::53'] }) },
  { name: 'dry run: taken addresses of both families', requests: (n, ns) => [
    post(SVC(ns), service(`${n}-a`, { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.72', clusterIPs: ['10.0.0.72', 'fd00::72'] })),
    post(`${SVC(ns)}?dryRun=All`, service(n, { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.72', clusterIPs: ['10.0.0.72', 'fd00::72'] }))] },
  { name: 'a secondary clusterIP taken twice', requests: (n, ns) => [
    post(SVC(ns), service(`${n}-a`, { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.54', clusterIPs: ['10.0.0.54', 'fd00::54'] })),
    post(SVC(ns), service(n, { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.55', clusterIPs: ['10.0.0.55', 'fd00::54'] }))] },
  { name: 'releasing the secondary without SingleStack', requests: (n, ns) => [
    post(SVC(ns), service(n, { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.56', clusterIPs: ['10.0.0.56', 'fd00::56'] })),
    put(`${SVC(ns)}/${n}`, service(n, { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.56', clusterIPs: ['10.0.0.56'], ipFamilies: ['IPv4'] }))] },
  { name: 'changing the primary family', requests: update({ clusterIP: '10.0.0.57', clusterIPs: ['10.0.0.57'] },
    { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv6'] }) },
  { name: 'changing the secondary clusterIP', requests: update({ ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.58', clusterIPs: ['10.0.0.58', 'fd00::58'] },
    { clusterIPs: ['10.0.0.58', 'fd00::59'] }) },
  { name: 'a headless service may name both families', requests: create({ clusterIP: 'None', ipFamilyPolicy: 'RequireDualStack' }) },
  { name: 'an upgrade naming its secondary clusterIP', requests: update({ clusterIP: '10.0.0.61', clusterIPs: ['10.0.0.61'] },
    { ipFamilyPolicy: 'RequireDualStack', clusterIPs: ['10.0.0.61', 'fd00::61'] }) },
];

describeValidationCorpus({
  title: 'dual-stack refusals of a single-stack cluster',
  cases: SINGLE_STACK_CASES,
  fixture: new URL('./testing/fixtures/single-stack-families-kube.json', import.meta.url),
});

describeValidationCorpus({
  title: 'dual-stack refusals of a dual-stack cluster',
  cases: DUAL_STACK_CASES,
  fixture: new URL('./testing/fixtures/dual-stack-validation-kube.json', import.meta.url),
  kapiFlags: DUAL_STACK_FLAGS,
  oracleFlags: DUAL_STACK_FLAGS,
});


/**
 * Service ranges of more than 20 host bits: kube v1.36 starts with them (the start-up check of
 * 20 bits is off with MultiCIDRServiceAllocator), makes them the default ServiceCIDR and allocates
 * from them.
 */
const LARGE_RANGES = ['--service-cluster-ip-range', '10.0.0.0/8,fd00::/64'];
const inLargeRange = (ip: unknown): boolean => typeof ip === 'string' && (ip.startsWith('10.') || ip.startsWith('fd00::'));
const LARGE_RANGE_CASES: ValidationCase[] = [
  { name: 'the default ServiceCIDR holds both large ranges', requests: () => [{ method: 'GET', path: '/apis/networking.k8s.io/v1/servicecidrs/kubernetes' }],
    keep: (o) => (o['spec'] as Record<string, unknown>)['cidrs'] },
  { name: 'the kubernetes service takes the first address', requests: () => [{ method: 'GET', path: '/api/v1/namespaces/default/services/kubernetes' }],
    keep: (o) => (o['spec'] as Record<string, unknown>)['clusterIPs'] },
  { name: 'a dual-stack service gets an address of each range', requests: (n, ns) => [post(`/api/v1/namespaces/${ns}/services`,
    { metadata: { name: n }, spec: { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] } })],
  keep: (o) => {
    const spec = o['spec'] as { ipFamilies?: unknown; clusterIPs?: unknown[] };
    return { ipFamilies: spec.ipFamilies, inRange: (spec.clusterIPs ?? []).map(inLargeRange) };
  } },
  { name: 'a static address far into the IPv4 range', requests: (n, ns) => [post(`/api/v1/namespaces/${ns}/services?dryRun=All`,
    { metadata: { name: n }, spec: { clusterIP: '10.0.200.7', ports: [{ port: 80 }] } })], keep: (o) => (o['spec'] as Record<string, unknown>)['clusterIPs'] },
  // Past the first 2^20 (IPv4) and 2^16 (IPv6) addresses too: kube's IPAddress-backed allocator
  // takes any address of the range but the network one and the IPv4 broadcast one.
  ...([
    ['far into the IPv4 range', '10.200.3.4', 'IPv4'], ['the last IPv4 host address', '10.255.255.254', 'IPv4'],
    ['the IPv4 broadcast address', '10.255.255.255', 'IPv4'], ['the IPv4 network address', '10.0.0.0', 'IPv4'],
    ['just outside the IPv4 range', '11.0.0.1', 'IPv4'], ['far into the IPv6 range', 'fd00::ffff:1234:5678:9abc', 'IPv6'],
    ['the last IPv6 address', 'fd00::ffff:ffff:ffff:ffff', 'IPv6'], ['the IPv6 network address', 'fd00::', 'IPv6'],
    ['just outside the IPv6 range', 'fd00:0:0:1::1', 'IPv6'],
  ] as const).map(([what, ip, family]): ValidationCase => ({ name: `a static address: ${what}`,
    requests: (n, ns) => [post(`/api/v1/namespaces/${ns}/services`,
      { metadata: { name: n }, spec: { clusterIP: ip, ipFamilies: [family], ports: [{ port: 80 }] } })],
    keep: (o) => (o['spec'] as Record<string, unknown>)['clusterIPs'] })),
  { name: 'a static address far into the range, taken', requests: (n, ns) => [
    post(`/api/v1/namespaces/${ns}/services`, { metadata: { name: `${n}-a` }, spec: { clusterIP: '10.201.0.9', ports: [{ port: 80 }] } }),
    post(`/api/v1/namespaces/${ns}/services`, { metadata: { name: n }, spec: { clusterIP: '10.201.0.9', ports: [{ port: 80 }] } })] },
  { name: 'a static IPv6 address far into the range, taken', requests: (n, ns) => [
    post(`/api/v1/namespaces/${ns}/services`, { metadata: { name: `${n}-a` }, spec: { clusterIP: 'fd00::abcd:0:0:9', ipFamilies: ['IPv6'], ports: [{ port: 80 }] } }),
    post(`/api/v1/namespaces/${ns}/services`, { metadata: { name: n }, spec: { clusterIP: 'fd00::abcd:0:0:9', ipFamilies: ['IPv6'], ports: [{ port: 80 }] } })] },
  { name: 'dry run: a dynamic address of each family', requests: (n, ns) => [post(`/api/v1/namespaces/${ns}/services?dryRun=All`,
    { metadata: { name: n }, spec: { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] } })],
  keep: (o) => (o['spec'] as Record<string, unknown>)['clusterIPs'] },
  { name: 'an IPv6 service gets an address of the IPv6 range', requests: (n, ns) => [post(`/api/v1/namespaces/${ns}/services`,
    { metadata: { name: n }, spec: { ipFamilies: ['IPv6'], ports: [{ port: 80 }] } })],
  keep: (o) => ((o['spec'] as { clusterIPs?: unknown[] }).clusterIPs ?? []).map(inLargeRange) },
];

describeValidationCorpus({
  title: 'service ranges of more than 20 host bits',
  cases: LARGE_RANGE_CASES,
  fixture: new URL('./testing/fixtures/large-service-ranges-kube.json', import.meta.url),
  // kube's controller creates the kubernetes service a moment after the server answers
  prepare: async (send) => {
    for (let i = 0; i < 100; i++) {
      if ((await send({ method: 'GET', path: '/api/v1/namespaces/default/services/kubernetes' })).status === 200) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  },
  kapiFlags: LARGE_RANGES,
  oracleFlags: LARGE_RANGES,
});

/**
 * An IPv6 range shorter than /64: kube starts and makes it Ready in the default ServiceCIDR, but
 * its allocator refuses such a prefix, so no IPv6 address is ever allocated from it.
 */
const SHORT_V6_RANGE = ['--service-cluster-ip-range', '10.0.0.0/24,fd00::/48'];
const svcOf = (n: string, spec: Record<string, unknown>): unknown => ({ metadata: { name: n }, spec: { ports: [{ port: 80 }], ...spec } });
const SHORT_V6_CASES: ValidationCase[] = [
  { name: 'an IPv6 service', requests: (n, ns) => [post(SVC(ns), svcOf(n, { ipFamilies: ['IPv6'] }))] },
  { name: 'a RequireDualStack service', requests: (n, ns) => [post(SVC(ns), svcOf(n, { ipFamilyPolicy: 'RequireDualStack' }))] },
  { name: 'a static IPv6 address', requests: (n, ns) => [post(SVC(ns), svcOf(n, { clusterIP: 'fd00::5', ipFamilies: ['IPv6'] }))] },
  { name: 'dry run: a static IPv6 address', requests: (n, ns) => [post(`${SVC(ns)}?dryRun=All`, svcOf(n, { clusterIP: 'fd00::5', ipFamilies: ['IPv6'] }))] },
  { name: 'dry run: an IPv6 service', requests: (n, ns) => [post(`${SVC(ns)}?dryRun=All`, svcOf(n, { ipFamilies: ['IPv6'] }))] },
  { name: 'an IPv4 service', requests: (n, ns) => [post(SVC(ns), svcOf(n, {}))], keep: (o) => (o['spec'] as Record<string, unknown>)['ipFamilies'] },
];

describeValidationCorpus({
  title: 'an IPv6 service range shorter than /64',
  cases: SHORT_V6_CASES,
  fixture: new URL('./testing/fixtures/short-ipv6-service-range-kube.json', import.meta.url),
  kapiFlags: SHORT_V6_RANGE,
  oracleFlags: SHORT_V6_RANGE,
});
