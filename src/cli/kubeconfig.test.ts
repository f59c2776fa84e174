import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { adminKubeconfig, serverURL, toBlockYAML, writeAdminKubeconfig } from './kubeconfig.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('admin kubeconfig', () => {
  it('is written with mode 0600 and parsed by kubectl', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-kubeconfig-'));
    try {
      const file = join(dir, 'sub', 'admin.kubeconfig');
      await writeAdminKubeconfig(file, { server: serverURL('127.0.0.1', 6443), caCert: CA, token: 'secret-token' });
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const out = execFileSync('kubectl', ['config', 'view', '--raw', '-o', 'json', '--kubeconfig', file], { encoding: 'utf8' });
      const view = JSON.parse(out) as {
        'current-context': string;
        clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
        users: { name: string; user: { token: string } }[];
        contexts: { name: string; context: { cluster: string; user: string } }[];
      };
      assert.equal(view['current-context'], 'kapi-admin@kapi');
      assert.deepEqual(view.contexts, [{ name: 'kapi-admin@kapi', context: { cluster: 'kapi', user: 'kapi-admin' } }]);
      assert.equal(view.clusters[0]?.cluster.server, 'https://127.0.0.1:6443');
      assert.equal(Buffer.from(view.clusters[0]?.cluster['certificate-authority-data'] ?? '', 'base64').toString(), CA);
      assert.deepEqual(view.users, [{ name: 'kapi-admin', user: { token: 'secret-token' } }]);
      const minified = execFileSync('kubectl', ['config', 'view', '--minify', '-o', 'jsonpath={.clusters[0].name}', '--kubeconfig', file],
        { encoding: 'utf8' });
      assert.equal(minified, 'kapi');
      assert.equal((parse(await readFile(file, 'utf8')) as { kind: string }).kind, 'Config');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const urls: { name: string; host: string; want: string }[] = [
    { name: 'IPv4', host: '127.0.0.1', want: 'https://127.0.0.1:6443' },
    { name: 'IPv6', host: '::1', want: 'https://[::1]:6443' },
    { name: 'name', host: 'localhost', want: 'https://localhost:6443' },
  ];
  for (const c of urls) it(`serverURL ${c.name}`, () => assert.equal(serverURL(c.host, 6443), c.want));

  // The file is written by a small emitter (no yaml package at start-up): whatever the strings
  // hold, a YAML parser must read back exactly the config.
  const tricky: { name: string; token: string; namespace?: string }[] = [
    { name: 'plain', token: 'secret-token' },
    { name: 'quotes, colon, comment, newline', token: 'a"b: c\n#d \'e\'' },
    { name: 'YAML keywords and numbers', token: 'null', namespace: '0x10' },
    { name: 'unicode and control characters', token: 'é☃\u0001\t' },
    { name: 'leading and trailing spaces, flow indicators', token: ' [a], {b} ', namespace: '- x' },
  ];
  for (const c of tricky) {
    it(`YAML round-trip: ${c.name}`, () => {
      const cfg = adminKubeconfig({ server: serverURL('::1', 6443), caCert: CA, token: c.token, clientCert: { cert: CA, key: 'k' },
        ...(c.namespace !== undefined ? { namespace: c.namespace } : {}) });
      assert.deepEqual(parse(toBlockYAML(cfg as unknown as Parameters<typeof toBlockYAML>[0])), cfg);
    });
  }
});
