// The etcd3 backend over TLS, against a real etcd serving https: with a client certificate
// (etcd's --client-cert-auth), with a CA alone (server authentication only), and the
// misconfigurations that must fail at once with a message naming the cause instead of waiting
// out the dial timeout.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { newSelfSignedCACert } from '../../apimachinery/util/cert.ts';
import type { BackendEvent } from '../backend.ts';
import { isStorageError } from '../interfaces.ts';
import { startEtcd, type EtcdServer } from '../testing/etcd-server.ts';
import { EtcdClient, lastConnectError, tlsConfigurationError, usesTLS } from './client.ts';
import { openEtcdBackend, type EtcdBackendOptions } from './etcd3-backend.ts';
import type { LocalEtcdTLS } from './local-etcd.ts';

/** Long on purpose: the failures below must come from the TLS error, not from this running out. */
const DIAL_TIMEOUT_MS = 20_000;

const tlsOf = (etcd: EtcdServer): LocalEtcdTLS => {
  assert.ok(etcd.tls !== undefined, 'etcd was started without TLS');
  return etcd.tls;
};

async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (cond()) return;
    await sleep(25);
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Opens a backend, writes, reads and watches one key, and closes it. */
async function roundTrip(opts: EtcdBackendOptions): Promise<void> {
  const b = await openEtcdBackend({ compactionIntervalMs: 0, dialTimeoutMs: DIAL_TIMEOUT_MS, prefix: '/tls', ...opts });
  try {
    const start = await b.currentRevision();
    const events: BackendEvent[] = [];
    const w = await b.watch('/cm/', { prefix: true, fromRevision: start }, {
      onEvents: (evs) => { events.push(...evs); }, onProgress: () => {}, onError: (err) => { assert.fail(err); },
    });
    const created = await b.create('/cm/a', 'v1');
    assert.equal(created.succeeded, true);
    const got = await b.range('/cm/a');
    assert.deepEqual(got.kvs.map((kv) => [kv.key, kv.value]), [['/cm/a', 'v1']]);
    await until('the watch event', () => events.length > 0);
    w.cancel();
    assert.deepEqual(events.map((e) => `${e.type}:${e.kv.key}=${e.kv.value}@${e.kv.modRevision}`), [`put:/cm/a=v1@${created.revision}`]);
  } finally {
    await b.close();
  }
}

/** Asserts that opening fails with Unreachable and a message matching `want`. */
async function assertOpenFails(opts: EtcdBackendOptions, want: RegExp): Promise<void> {
  await assert.rejects(openEtcdBackend({ compactionIntervalMs: 0, dialTimeoutMs: DIAL_TIMEOUT_MS, ...opts }), (err) => {
    assert.ok(isStorageError(err, 'Unreachable'), String(err));
    assert.match(err.message, want);
    return true;
  });
}

describe('etcd3 backend over TLS with client certificates', () => {
  let etcd: EtcdServer;
  let otherCA: string;
  before(async () => {
    etcd = await startEtcd({ name: 'kapi-etcd-mtls', tls: true });
    otherCA = join(etcd.dataDir, 'pki', 'other-ca.crt');
    writeFileSync(otherCA, (await newSelfSignedCACert({ commonName: 'not-etcds-ca', validityDays: 1 })).cert);
  });
  after(async () => { await etcd?.stop(); });

  it('serves https and exposes the certificate files', () => {
    assert.match(etcd.endpoint, /^https:\/\/127\.0\.0\.1:\d+$/);
    const tls = tlsOf(etcd);
    for (const f of [tls.caFile, tls.certFile, tls.keyFile]) assert.ok(f.startsWith(etcd.dataDir), f);
  });

  it('puts, gets and watches with the CA and the client certificate', async () => {
    const { caFile, certFile, keyFile } = tlsOf(etcd);
    await roundTrip({ endpoints: [etcd.endpoint], caFile, certFile, keyFile });
  });

  it('fails at once without a client certificate, saying etcd rejected it', async () => {
    await assertOpenFails({ endpoints: [etcd.endpoint], caFile: tlsOf(etcd).caFile }, /etcd rejected the client certificate/);
  });

  it('fails at once when the CA did not sign etcd\'s certificate', async () => {
    const { certFile, keyFile } = tlsOf(etcd);
    await assertOpenFails({ endpoints: [etcd.endpoint], caFile: otherCA, certFile, keyFile },
      /etcd's serving certificate is not trusted \(unable to verify the first certificate\)/);
  });

  it('fails at once with the system roots only (https:// and no CA file)', async () => {
    await assertOpenFails({ endpoints: [etcd.endpoint] }, /etcd's serving certificate is not trusted/);
  });

  it('uses the endpoint that works when another one fails TLS', async () => {
    const { caFile, certFile, keyFile } = tlsOf(etcd);
    // The bare host:port dials TLS because TLS files are given; the http:// one stays plain and
    // cannot talk to this https port, so only the first endpoint can serve.
    const b = await openEtcdBackend({
      endpoints: [etcd.endpoint.replace('https://', ''), etcd.endpoint.replace('https://', 'http://')],
      caFile, certFile, keyFile, compactionIntervalMs: 0, dialTimeoutMs: DIAL_TIMEOUT_MS,
    });
    await b.close();
  });

  it('rejects a client certificate without its key before dialling', () => {
    assert.throws(() => new EtcdClient({ endpoints: [etcd.endpoint], certFile: tlsOf(etcd).certFile, requestTimeoutMs: 1000 }),
      /client certificate and key must both be given/);
  });
});

describe('etcd3 backend over TLS without client certificates', () => {
  let etcd: EtcdServer;
  before(async () => { etcd = await startEtcd({ name: 'kapi-etcd-tls', tls: true, clientCertAuth: false }); });
  after(async () => { await etcd?.stop(); });

  it('puts, gets and watches with the CA alone (server authentication only)', async () => {
    await roundTrip({ endpoints: [etcd.endpoint], caFile: tlsOf(etcd).caFile });
  });
});

describe('usesTLS (as etcd\'s Go client picks the transport)', () => {
  const files = { caFile: '/ca.crt' };
  for (const c of [
    { name: 'http:// is plain even with TLS files', endpoint: 'http://10.0.0.1:2379', opts: files, want: false },
    { name: 'https:// is TLS even without files (system roots)', endpoint: 'https://10.0.0.1:2379', opts: {}, want: true },
    { name: 'host:port is TLS with TLS files', endpoint: '10.0.0.1:2379', opts: files, want: true },
    { name: 'host:port is plain without TLS files', endpoint: '10.0.0.1:2379', opts: {}, want: false },
  ]) {
    it(c.name, () => assert.equal(usesTLS(c.endpoint, { endpoints: [c.endpoint], requestTimeoutMs: 1, ...c.opts }), c.want));
  }
});

describe('connection errors', () => {
  for (const c of [
    {
      name: 'an OpenSSL alert from etcd',
      details: 'No connection established. Last error: 802CE69ACE7F0000:error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 42\n (2026-01-02T03:04:05.678Z). Resolution note: ',
      error: 'sslv3 alert bad certificate', tls: /etcd rejected the client certificate/,
    },
    {
      name: 'an untrusted serving certificate',
      details: 'No connection established. Last error: Error: unable to verify the first certificate. Resolution note: ',
      error: 'unable to verify the first certificate', tls: /serving certificate is not trusted/,
    },
    {
      name: 'a refused connection (not TLS: waiting may cure it)',
      details: 'No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: ',
      error: 'connect ECONNREFUSED 127.0.0.1:1', tls: undefined,
    },
  ]) {
    it(c.name, () => {
      const error = lastConnectError(c.details);
      assert.equal(error, c.error);
      const tls = tlsConfigurationError(error);
      if (c.tls === undefined) assert.equal(tls, undefined);
      else assert.match(tls ?? '', c.tls);
    });
  }
});
