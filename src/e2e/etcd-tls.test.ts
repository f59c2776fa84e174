// kapi on an etcd that serves https and requires client certificates, started with
// kube-apiserver's flags (--etcd-servers https://…, --etcd-cafile, --etcd-certfile,
// --etcd-keyfile): kubectl writes and reads through it, /readyz reports the etcd check ok, and
// the object is in that etcd under kube's key layout.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EtcdClient } from '../storage/etcd3/client.ts';
import { etcdFlags, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-etcd-tls';

describe('kapi on etcd over TLS with client certificates', () => {
  let s: Suite;
  before(async () => { s = await startSuite({ backend: 'etcd3', etcd: { name: 'kapi-e2e-etcd-tls', tls: true } }); });
  after(async () => { await s?.close(); });

  it('was started with an https etcd URL and the three TLS files', () => {
    assert.ok(s.etcd?.tls !== undefined, 'the suite\'s etcd serves TLS');
    const flags = etcdFlags(s.etcd);
    assert.match(flags[1] ?? '', /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(flags.filter((f) => f.startsWith('--')), ['--etcd-servers', '--etcd-cafile', '--etcd-certfile', '--etcd-keyfile']);
  });

  it('creates and gets a configmap with kubectl', async () => {
    const ns = await s.kubectl(['create', 'namespace', NS]);
    assert.equal(ns.code, 0, ns.stderr);
    const created = await s.kubectl(['create', 'configmap', 'over-tls', '-n', NS, '--from-literal=greeting=hello']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /configmap\/over-tls created/);
    const got = await s.kubectl(['get', 'configmap', 'over-tls', '-n', NS, '-o', 'jsonpath={.data.greeting}']);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, 'hello');
  });

  it('stores the configmap in that etcd under kube\'s key layout', async () => {
    const etcd = s.etcd;
    assert.ok(etcd?.tls !== undefined);
    const { caFile, certFile, keyFile } = etcd.tls;
    const client = new EtcdClient({ endpoints: [etcd.endpoint], caFile, certFile, keyFile, requestTimeoutMs: 5000 });
    try {
      const res = await client.call('KV/Range', { key: Buffer.from(`/registry/configmaps/${NS}/over-tls`) });
      assert.equal(res.kvs.length, 1);
      // kube's storage encoding: the protobuf envelope, holding the data's key and value.
      const value = res.kvs[0]?.value.toString('latin1') ?? '';
      assert.ok(value.startsWith('k8s\u0000') && value.includes('greeting') && value.includes('hello'), JSON.stringify(value));
    } finally {
      client.close();
    }
  });

  it('reports the etcd check ok in /readyz?verbose', async () => {
    const r = await s.request({ method: 'GET', path: '/readyz?verbose' });
    assert.equal(r.status, 200, r.text);
    assert.match(r.text, /^\[\+\]etcd ok$/m);
    assert.match(r.text, /readyz check passed/);
  });
});
