// Encryption at rest on the embedded store: Secrets written through the API are stored encrypted
// (raw values read from the SQLite file), a server with a rotated config reads old values and a
// StorageVersionMigration rewrites them under the new key, and a server that lacks the key fails
// only the requests that read those values, with kube's messages.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer, type RunningServer } from '../index.ts';
import { valueToBytes } from '../storage/value/bytes.ts';
import { loadAdminCredentials, rawRequest, type RawRequest, type RawResponse } from './testing/https-client.ts';
import { parsePrometheusText, sampleValue } from './testing/prometheus.ts';
import { eventually } from './testing/suite.ts';

const KEY1 = Buffer.alloc(32, 1).toString('base64');
const KEY2 = Buffer.alloc(32, 2).toString('base64');
const SECRET_KEY = '/registry/secrets/default/s1';

type Keys = readonly { name: string; secret: string }[];
const config = (keys: Keys, templateKeys: Keys = keys): string => JSON.stringify({
  apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration',
  resources: [
    { resources: ['secrets'], providers: [{ aescbc: { keys } }, { identity: {} }] },
    { resources: ['podtemplates'], providers: [{ aescbc: { keys: templateKeys } }] },
  ],
});

/** The newest stored value of a key; the server holds the file exclusively, so only after close(). */
function rawValue(dataDir: string, key: string): Buffer | undefined {
  const db = new Database(join(dataDir, 'kapi.db'), { readonly: true });
  try {
    const row = db.prepare<[string], { value: string }>('SELECT value FROM kv_log WHERE key = ? AND deleted = 0 ORDER BY rev DESC LIMIT 1').get(key);
    return row === undefined ? undefined : valueToBytes(row.value);
  } finally {
    db.close();
  }
}

describe('encryption at rest (sqlite)', () => {
  let dir: string;
  let dataDir: string;
  let cfgPath: string;
  let server: RunningServer | undefined;
  let request: (req: RawRequest) => Promise<RawResponse>;

  const stopAndRead = async (key: string): Promise<Buffer | undefined> => {
    await server?.close();
    server = undefined;
    return rawValue(dataDir, key);
  };
  const start = async (cfg: string, more: readonly string[] = []): Promise<void> => {
    await server?.close();
    await writeFile(cfgPath, cfg);
    server = await startServer({ dataDir, flags: ['--encryption-provider-config', cfgPath, '--runtime-config', 'storagemigration.k8s.io/v1beta1=true', ...more] });
    const creds = await loadAdminCredentials(server.kubeconfigPath);
    request = (req) => rawRequest(creds, req);
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-enc-'));
    dataDir = join(dir, 'data');
    cfgPath = join(dir, 'enc.json');
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores Secrets encrypted with the first key, other resources as they were', async () => {
    await start(config([{ name: 'key1', secret: KEY1 }]));
    const r = await request({ method: 'POST', path: '/api/v1/namespaces/default/secrets',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { password: 'hunter2' } }) });
    assert.equal(r.status, 201, r.body.toString());
    const t = await request({ method: 'POST', path: '/api/v1/namespaces/default/podtemplates',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt1' },
        template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } }) });
    assert.equal(t.status, 201, t.body.toString());
    const got = await request({ method: 'GET', path: '/api/v1/namespaces/default/secrets/s1' });
    assert.equal(got.status, 200);
    assert.equal((got.json() as { data: Record<string, string> }).data.password, 'aHVudGVyMg==');
    const raw = await stopAndRead(SECRET_KEY);
    assert.ok(raw);
    assert.equal(raw.subarray(0, 23).toString(), 'k8s:enc:aescbc:v1:key1:');
    assert.ok(!raw.includes(Buffer.from('aHVudGVyMg==')));
    // Other resources are stored as without encryption: kube's protobuf envelope.
    assert.ok(rawValue(dataDir, '/registry/namespaces/default')?.toString('latin1').startsWith('k8s\u0000'));
  });

  it('after rotation reads the old key; a StorageVersionMigration rewrites the Secret with the new key', async () => {
    await start(config([{ name: 'key2', secret: KEY2 }, { name: 'key1', secret: KEY1 }]));
    const got = await request({ method: 'GET', path: '/api/v1/namespaces/default/secrets/s1' });
    assert.equal(got.status, 200, got.body.toString());
    const c = await request({ method: 'POST', path: '/apis/storagemigration.k8s.io/v1beta1/storageversionmigrations',
      body: JSON.stringify({ apiVersion: 'storagemigration.k8s.io/v1beta1', kind: 'StorageVersionMigration', metadata: { name: 'secrets' },
        spec: { resource: { group: '', resource: 'secrets' } } }) });
    assert.equal(c.status, 201, c.body.toString());
    const done = await eventually('migration succeeded', async () => {
      const s = (await request({ method: 'GET', path: '/apis/storagemigration.k8s.io/v1beta1/storageversionmigrations/secrets' })).json() as
        { status?: { resourceVersion?: string; conditions?: { type: string; status: string; reason: string }[] } };
      return s.status?.conditions?.some((x) => x.type === 'Succeeded' && x.status === 'True') === true ? s.status : undefined;
    });
    assert.match(done.resourceVersion ?? '', /^[1-9][0-9]*$/);
    assert.deepEqual(done.conditions?.map((x) => [x.type, x.status, x.reason]), [
      ['Running', 'False', 'StorageVersionMigrationInProgress'], ['Succeeded', 'True', 'StorageVersionMigrationSucceeded']]);
    assert.equal((await stopAndRead(SECRET_KEY))?.subarray(0, 23).toString(), 'k8s:enc:aescbc:v1:key2:');
  });

  it('without the key (after an automatic reload): kube\'s error for reads of that object only; the server stays healthy', async () => {
    await start(config([{ name: 'key2', secret: KEY2 }, { name: 'key1', secret: KEY1 }]), ['--encryption-provider-config-automatic-reload']);
    assert.equal((await request({ method: 'GET', path: '/api/v1/namespaces/default/podtemplates/pt1' })).status, 200);
    const reloads = async (): Promise<number> => sampleValue(parsePrometheusText((await request({ method: 'GET', path: '/metrics' })).body.toString()),
      'apiserver_encryption_config_controller_automatic_reloads_total', { status: 'success' }) ?? 0;
    const before = await reloads();
    // A kapi server (like kube's informers) that cannot read a followed resource at start-up does
    // not start, so the key goes away while the server runs.
    const reloaded = config([{ name: 'key2', secret: KEY2 }], [{ name: 'key3', secret: Buffer.alloc(32, 3).toString('base64') }]);
    await writeFile(cfgPath, reloaded);
    const got = await eventually('reloaded config', async () => {
      const r = await request({ method: 'GET', path: '/api/v1/namespaces/default/podtemplates/pt1' });
      return r.status === 500 ? r : undefined;
    });
    assert.equal((got.json() as { message: string }).message, 'Internal error occurred: no matching key was found for the provided AES transformer');
    assert.equal(await reloads(), before + 1);
    const info = parsePrometheusText((await request({ method: 'GET', path: '/metrics' })).body.toString()).get('apiserver_encryption_config_controller_last_config_info');
    assert.equal(info?.samples[0]?.labels['hash'], `sha256:${createHash('sha256').update(reloaded).digest('hex')}`);
    // A list is a consistent read from the watch cache, which still holds the object (as kube's).
    assert.equal((await request({ method: 'GET', path: '/api/v1/namespaces/default/podtemplates' })).status, 200);
    assert.equal((await request({ method: 'GET', path: '/api/v1/namespaces/default/secrets/s1' })).status, 200);
    assert.equal((await request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' })).status, 200);
    assert.equal((await request({ method: 'GET', path: '/readyz' })).status, 200);
  });

  it('a StorageVersionMigration of a resource that is not served fails as kube\'s migrator fails it', async () => {
    await start(config([{ name: 'key2', secret: KEY2 }, { name: 'key1', secret: KEY1 }]));
    const c = await request({ method: 'POST', path: '/apis/storagemigration.k8s.io/v1beta1/storageversionmigrations',
      body: JSON.stringify({ apiVersion: 'storagemigration.k8s.io/v1beta1', kind: 'StorageVersionMigration', metadata: { name: 'nothing' },
        spec: { resource: { group: 'example.com', resource: 'widgets' } } }) });
    assert.equal(c.status, 201, c.body.toString());
    const failed = await eventually('migration failed', async () => {
      const s = (await request({ method: 'GET', path: '/apis/storagemigration.k8s.io/v1beta1/storageversionmigrations/nothing' })).json() as
        { status?: { resourceVersion?: string; conditions?: { type: string; status: string; reason: string; message: string }[] } };
      return s.status?.conditions?.some((x) => x.type === 'Failed') === true ? s.status : undefined;
    });
    assert.deepEqual(failed.conditions?.map((x) => [x.type, x.status, x.reason, x.message]),
      [['Failed', 'True', 'StorageVersionMigrationFailed', 'resource does not exist in discovery']]);
  });
});
