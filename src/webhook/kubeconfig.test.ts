import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadWebhookKubeconfig } from './kubeconfig.ts';

const config = (cluster: Record<string, unknown>, user: Record<string, unknown> = {}, current = 'c'): string => stringify({
  apiVersion: 'v1', kind: 'Config', 'current-context': current,
  clusters: [{ name: 'wh', cluster }], users: [{ name: 'u', user }], contexts: [{ name: 'c', context: { cluster: 'wh', user: 'u' } }],
});

describe('loadWebhookKubeconfig', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-kubeconfig-'));
    await writeFile(join(dir, 'ca.pem'), 'CA PEM');
    await writeFile(join(dir, 'token'), 'file-token\n');
  });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  const load = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return await loadWebhookKubeconfig(path, 'hook');
  };

  it('reads files relative to the kubeconfig, a token file and TLS options', async () => {
    const cc = await load('rel.kubeconfig', config(
      { server: 'https://127.0.0.1:9/review', 'certificate-authority': 'ca.pem', 'insecure-skip-tls-verify': true, 'tls-server-name': 'hook.example' },
      { tokenFile: 'token', 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') },
    ));
    assert.deepEqual(cc, {
      name: 'hook', url: 'https://127.0.0.1:9/review', caBundle: Buffer.from('CA PEM').toString('base64'),
      credentials: { certPEM: 'CERT', keyPEM: 'KEY', bearerToken: 'file-token', insecureSkipTLSVerify: true, serverName: 'hook.example' },
    });
  });

  it('basic auth when the user has no token', async () => {
    const cc = await load('basic.kubeconfig', config({ server: 'https://h' }, { username: 'a', password: 'b' }));
    assert.deepEqual(cc.credentials, { basicAuth: { username: 'a', password: 'b' } });
  });

  const errors = [
    { name: 'a cluster without a server', text: config({}), want: 'invalid configuration: no server found for cluster "wh"' },
    { name: 'no current context', text: config({ server: 'https://h' }, {}, ''), want: 'invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable' },
    { name: 'a missing CA file', text: config({ server: 'https://h', 'certificate-authority': '/nonexistent/ca' }), want: 'invalid configuration: unable to read certificate-authority /nonexistent/ca for wh due to open /nonexistent/ca: no such file or directory' },
  ];
  for (const c of errors) {
    it(`refuses ${c.name}`, async () => {
      await assert.rejects(load('bad.kubeconfig', c.text), (err: Error) => { assert.equal(err.message, c.want); return true; });
    });
  }

  it('refuses a file that is not there', async () => {
    await assert.rejects(loadWebhookKubeconfig(join(dir, 'none'), 'hook'), (err: Error) => {
      assert.equal(err.message, `stat ${join(dir, 'none')}: no such file or directory`);
      return true;
    });
  });
});
