// Priority and fairness, CORS and HSTS on kapi and on kube-apiserver v1.36 (the oracle), started
// with the same flags: the bootstrap FlowSchemas and PriorityLevelConfigurations (specs,
// annotation, Dangling condition), the headers of an answer and of a CORS preflight, the dump
// tables' columns and levels, and the 429 a user whose level is full gets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rawRequest, type AdminCredentials, type RawRequest, type RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { backendFromEnv, eventually, startSuite, type Suite } from './testing/suite.ts';

const FLAGS = ['--cors-allowed-origins', '^https://example\\.com$,//foo\\.org(:|$)', '--strict-transport-security-directives', 'max-age=31536000,includeSubDomains,preload'];
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
const skip = oracleUnavailable() ?? (backendFromEnv() === 'etcd3' ? 'run on the sqlite pass only' : undefined);

interface Item { metadata: { name: string; annotations?: Record<string, string> }; spec: unknown; status?: { conditions?: Record<string, unknown>[] } }

/** What the config producer and consumer own: name, annotation, spec, and the Dangling condition but its time. */
function normalize(items: readonly Item[]): unknown[] {
  return items.map((i) => ({
    name: i.metadata.name, annotations: i.metadata.annotations, spec: i.spec,
    conditions: (i.status?.conditions ?? []).map(({ lastTransitionTime: _t, ...c }) => c),
  }));
}

/** A create as `user` (impersonated by the admin) whose body never completes: it holds a seat. */
function slowCreateAs(creds: AdminCredentials, user: string): ClientRequest {
  const u = new URL(creds.server);
  const r = httpsRequest({
    hostname: u.hostname, port: u.port, path: '/api/v1/namespaces/default/configmaps', method: 'POST', ca: creds.ca, agent: false,
    headers: { Authorization: `Bearer ${creds.token}`, 'Impersonate-User': user, 'Content-Type': 'application/json', 'Content-Length': '1000' },
  });
  r.on('error', () => {});
  r.write('{"apiVersion":"v1",');
  return r;
}

describe('priority and fairness, CORS and HSTS on kapi and on kube-apiserver', { skip: skip ?? false }, () => {
  let s: Suite | undefined;
  let o: Oracle | undefined;
  const both = (): [string, AdminCredentials, (r: RawRequest) => Promise<RawResponse>][] => [
    ['kapi', (s as Suite).creds, (r) => (s as Suite).request(r)], ['kube', (o as Oracle).creds, (r) => (o as Oracle).request(r)]];

  before(async () => {
    [s, o] = await Promise.all([startSuite({ flags: FLAGS }), startOracle({ flags: FLAGS })]);
  });
  after(async () => {
    await s?.close();
    await o?.stop();
  });

  it('creates the same FlowSchemas and PriorityLevelConfigurations', async () => {
    const got: Record<string, unknown> = {};
    for (const [name, , request] of both()) {
      got[name] = await eventually(`${name}: objects with status`, async () => {
        const fs = (await request({ method: 'GET', path: `${FC}/flowschemas` })).json() as { items: Item[] };
        const pl = (await request({ method: 'GET', path: `${FC}/prioritylevelconfigurations` })).json() as { items: Item[] };
        if (fs.items.length === 0 || fs.items.some((i) => i.status?.conditions === undefined)) return undefined;
        return { flowSchemas: normalize(fs.items), priorityLevels: normalize(pl.items) };
      });
    }
    assert.deepEqual(got['kapi'], got['kube']);
  });

  it('answers with the same HSTS and APF headers, and the same CORS preflight', async () => {
    const seen: Record<string, unknown> = {};
    for (const [name, , request] of both()) {
      const r = await request({ method: 'GET', path: '/api/v1/namespaces/default', headers: { Origin: 'http://foo.org:8080' } });
      const pre = await request({ method: 'OPTIONS', path: '/api/v1/namespaces', auth: false,
        headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'GET' } });
      const pick = (h: RawResponse['headers'], re: RegExp) => Object.fromEntries(Object.entries(h).filter(([k]) => re.test(k)));
      seen[name] = {
        get: { status: r.status, headers: pick(r.headers, /^(access-control-|strict-transport-security)/),
          apf: ['x-kubernetes-pf-flowschema-uid', 'x-kubernetes-pf-prioritylevel-uid'].map((h) => typeof r.headers[h] === 'string') },
        preflight: { status: pre.status, headers: pick(pre.headers, /^(access-control-|strict-transport-security)/), body: pre.text },
      };
    }
    assert.deepEqual(seen['kapi'], seen['kube']);
  });

  it('dumps the same columns and priority levels', async () => {
    const seen: Record<string, unknown> = {};
    for (const [name, , request] of both()) {
      const dump = async (d: string) => (await request({ method: 'GET', path: `/debug/api_priority_and_fairness/${d}` }));
      const levels = await dump('dump_priority_levels');
      const queues = await dump('dump_queues');
      const requests = await dump('dump_requests?includeRequestDetails=1');
      seen[name] = {
        types: [levels, queues, requests].map((r) => [r.status, r.headers['content-type']]),
        // Cells only: the alignment depends on whatever else runs at the time (kube's own loopback requests).
        heads: [levels, queues, requests].map((r) => (r.text.split('\n')[0] ?? '').split(/,\s*/)),
        levels: levels.text.split('\n').slice(1).filter((l) => l !== '').map((l) => l.split(',')[0]),
        queuesPerLevel: Object.entries(queues.text.split('\n').slice(1).filter((l) => l !== '')
          .reduce<Record<string, number>>((m, l) => ({ ...m, [l.split(',')[0] ?? '']: (m[l.split(',')[0] ?? ''] ?? 0) + 1 }), {})).sort(),
        // The dump request itself, as the admin's, exempt.
        self: requests.text.split('\n').filter((l) => l.includes('/debug/api_priority_and_fairness/dump_requests')).map((l) => l.split(/,\s*/).slice(0, 4)),
      };
    }
    assert.deepEqual(seen['kapi'], seen['kube']);
  });

  it('rejects a user whose level is full with the same 429', async () => {
    const pl = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'noisy' },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Reject' } } } };
    const fs = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'noisy' },
      spec: { priorityLevelConfiguration: { name: 'noisy' }, matchingPrecedence: 100, distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'User', user: { name: 'noisy' } }],
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }] } };
    const seen: Record<string, unknown> = {};
    for (const [name, creds, request] of both()) {
      assert.equal((await request({ method: 'POST', path: `${FC}/prioritylevelconfigurations`, body: JSON.stringify(pl) })).status, 201);
      const created = await request({ method: 'POST', path: `${FC}/flowschemas`, body: JSON.stringify(fs) });
      const uid = (created.json() as { metadata: { uid: string } }).metadata.uid;
      const asNoisy = (): Promise<RawResponse> => rawRequest(creds, { method: 'GET', path: '/api/v1/namespaces/default/configmaps', headers: { 'Impersonate-User': 'noisy' } });
      await eventually(`${name}: noisy classified`, async () => ((await asNoisy()).headers['x-kubernetes-pf-flowschema-uid'] === uid ? true : undefined));
      // ceil(600 × 1 / 246) = 3 seats; more slow requests than that, so the level is full whatever each
      // server does with the surplus.
      const held = [0, 1, 2, 3, 4, 5].map(() => slowCreateAs(creds, 'noisy'));
      try {
        // The level full of held requests before the probes: a probe arriving first would take a seat itself.
        await eventually(`${name}: three noisy requests executing`, async () => {
          const dump = (await request({ method: 'GET', path: '/debug/api_priority_and_fairness/dump_requests' })).text;
          return dump.split('\n').filter((l) => l.startsWith('noisy,')).length === 3 ? true : undefined;
        });
        const r = await eventually(`${name}: a 429`, async () => { const x = await asNoisy(); return x.status === 429 ? x : undefined; })
          .catch(async (err: unknown) => {
            // What the level looked like, for the failure message.
            const dump = (await request({ method: 'GET', path: '/debug/api_priority_and_fairness/dump_priority_levels' })).text;
            throw new Error(`${String(err)}; ${dump.split('\n').filter((l) => l.startsWith('noisy,') || l.startsWith('PriorityLevelName')).join(' | ')}`);
          });
        seen[name] = { status: r.status, body: r.text, type: r.headers['content-type'], retryAfter: r.headers['retry-after'],
          sameFS: r.headers['x-kubernetes-pf-flowschema-uid'] === uid,
          admin: (await request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' })).status };
      } finally {
        for (const h of held) h.destroy();
      }
    }
    assert.deepEqual(seen['kapi'], seen['kube']);
  });
});
