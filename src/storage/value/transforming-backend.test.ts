import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonCodec } from '../json-codec.ts';
import { openSqliteBackend } from '../sqlite/sqlite-backend.ts';
import { newStore } from '../store.ts';
import { buildTransformers } from './config.ts';
import { valueToBytes } from './bytes.ts';
import { transformingBackend } from './transforming-backend.ts';

const dir = mkdtempSync(join(tmpdir(), 'kapi-tb-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const aescbc = (...keys: string[]) => buildTransformers({ resources: [{ resources: ['secrets'],
  providers: [{ aescbc: { keys: keys.map((k) => ({ name: k, secret: Buffer.alloc(32, k.length + k.charCodeAt(k.length - 1)).toString('base64') })) } }] }] })
  .forResource({ group: '', resource: 'secrets' });

const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'ns' }, data: { a: 'YQ==' } });

describe('transforming backend under the object store', () => {
  it('rotation: a no-op update rewrites a value read with an old key; one bad value fails only its reads', async () => {
    const base = await openSqliteBackend({ path: join(dir, 'a.db') });
    try {
      const old = newStore(transformingBackend(base, aescbc('k1')), jsonCodec);
      await old.create('/registry/secrets/ns/s1', secret('s1'));
      await old.create('/registry/secrets/ns/s2', secret('s2'));
      const rawPrefix = async (k: string) => valueToBytes((await base.range(k)).kvs[0]?.value ?? '').subarray(0, 21).toString();
      assert.equal(await rawPrefix('/registry/secrets/ns/s1'), 'k8s:enc:aescbc:v1:k1:');

      const rotated = newStore(transformingBackend(base, aescbc('k2', 'k1')), jsonCodec);
      const before = await base.currentRevision();
      const out = await rotated.guaranteedUpdate('/registry/secrets/ns/s1', { ignoreNotFound: false, tryUpdate: (cur) => { assert.ok(cur); return cur; } });
      assert.equal(out.metadata.resourceVersion, String(before + 1));
      assert.equal(await rawPrefix('/registry/secrets/ns/s1'), 'k8s:enc:aescbc:v1:k2:');
      // Up to date now: the same no-op update writes nothing.
      await rotated.guaranteedUpdate('/registry/secrets/ns/s1', { ignoreNotFound: false, tryUpdate: (cur) => { assert.ok(cur); return cur; } });
      assert.equal(await base.currentRevision(), before + 1);

      const onlyNew = newStore(transformingBackend(base, aescbc('k2')), jsonCodec);
      assert.equal((await onlyNew.get('/registry/secrets/ns/s1', {}))?.metadata.name, 's1');
      await assert.rejects(onlyNew.get('/registry/secrets/ns/s2', {}),
        { code: 500, message: 'Internal error occurred: no matching key was found for the provided AES transformer' });
      await assert.rejects(onlyNew.getList('/registry/secrets/ns', { recursive: true, predicate: { empty: true, matches: () => true } }),
        { code: 500, message: 'Internal error occurred: unable to transform key "/registry/secrets/ns/s2": no matching key was found for the provided AES transformer' });
    } finally {
      await base.close();
    }
  });
});
