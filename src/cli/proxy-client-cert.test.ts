import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSelfSignedCACert, newSignedCert } from '../apimachinery/util/cert.ts';
import { FlagError } from './flags.ts';
import { loadProxyClientCert } from './proxy-client-cert.ts';

// The start-up errors kube-apiserver v1.36.3 stops with for these pairs (asked with the oracle).
describe('--proxy-client-cert-file / --proxy-client-key-file', () => {
  let dir: string;
  const f = (n: string): string => join(dir, n);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-proxy-cert-'));
    const ca = await newSelfSignedCACert({ commonName: 'ca', validityDays: 1 });
    const a = await newSignedCert(ca, { commonName: 'a', usages: ['clientAuth'], validityDays: 1 });
    const b = await newSignedCert(ca, { commonName: 'b', usages: ['clientAuth'], validityDays: 1 });
    await writeFile(f('a.crt'), a.cert);
    await writeFile(f('a.key'), a.key);
    await writeFile(f('b.key'), b.key);
    await writeFile(f('empty'), '');
    await writeFile(f('junk'), 'junk');
  });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  const cases = [
    { name: 'a key that is not the certificate\'s', cert: 'a.crt', key: 'b.key', want: 'tls: private key does not match public key' },
    { name: 'a missing file', cert: 'nope.crt', key: 'a.key', want: () => `open ${f('nope.crt')}: no such file or directory` },
    { name: 'an empty file', cert: 'a.crt', key: 'empty', want: () => `missing content for serving cert "aggregator-proxy-cert::${f('a.crt')}::${f('empty')}"` },
    { name: 'a certificate file without PEM', cert: 'junk', key: 'a.key', want: 'tls: failed to find any PEM data in certificate input' },
    { name: 'a key file without PEM', cert: 'a.crt', key: 'junk', want: 'tls: failed to find any PEM data in key input' },
  ];
  for (const c of cases) {
    it(`stops the start on ${c.name}`, async () => {
      const want = typeof c.want === 'string' ? c.want : c.want();
      await assert.rejects(loadProxyClientCert(f(c.cert), f(c.key)), (e: unknown) => e instanceof FlagError && e.message === want);
    });
  }
  it('loads a matching pair', async () => {
    const p = await loadProxyClientCert(f('a.crt'), f('a.key'));
    assert.match(p?.cert ?? '', /BEGIN CERTIFICATE/);
  });
  it('ignores one flag without the other, as kube does', async () => {
    assert.equal(await loadProxyClientCert(f('a.crt'), undefined), undefined);
    assert.equal(await loadProxyClientCert(undefined, f('nope.key')), undefined);
  });
});
