import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { newSelfSignedCACert, newSignedCert } from '../../../apimachinery/util/cert.ts';
import { freePort } from '../../../storage/etcd3/local-etcd.ts';
import { httpsHealthProbe } from './http-probe.ts';

describe('httpsHealthProbe', () => {
  let server: Server;
  let port: number;
  before(async () => {
    const ca = await newSelfSignedCACert({ commonName: 'probe-ca', validityDays: 1 });
    const pair = await newSignedCert(ca, { commonName: 'probe', ips: ['127.0.0.1'], usages: ['serverAuth'], validityDays: 1 });
    server = createServer({ cert: pair.cert, key: pair.key }, (req, res) => {
      if (req.url === '/healthz') { res.end('ok'); return; }
      if (req.url === '/moved') { res.writeHead(302, { Location: '/healthz' }).end('see /healthz'); return; }
      res.writeHead(500).end('[-]etcd failed: secret details');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => { server?.close(); });

  const cases = [
    { name: 'healthy: the body is the message (certificate not verified)', path: '/healthz', want: 'ok' },
    { name: 'an error status: the code, never the body', path: '/broken', want: { unhealthy: 'HTTP probe failed with statuscode: 500' } },
    { name: 'a redirect is inconclusive', path: '/moved', want: { unknown: 'Probe terminated redirects, Response body: see /healthz' } },
  ];
  for (const c of cases) {
    it(c.name, async () => assert.deepEqual(await httpsHealthProbe(`https://127.0.0.1:${port}${c.path}`)(), c.want));
  }

  it('nothing listening: Go\'s connection refused text', async () => {
    const closed = await freePort();
    const url = `https://127.0.0.1:${closed}/healthz`;
    assert.deepEqual(await httpsHealthProbe(url)(), { unhealthy: `Get "${url}": dial tcp 127.0.0.1:${closed}: connect: connection refused` });
  });
});
