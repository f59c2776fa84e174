import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { Indexer, metaNamespaceKey, splitMetaNamespaceKey } from './indexer.ts';

const obj = (ns: string, name: string, owner = ''): KubeObject =>
  ({ metadata: { name, namespace: ns, ...(owner === '' ? {} : { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: owner, uid: owner }] }) } });
const byOwner = (o: KubeObject): string[] => (o.metadata.ownerReferences ?? []).map((r) => r.uid);

describe('Indexer', () => {
  it('keys objects by namespace/name', () => {
    const cases = [{ name: 'namespaced', ns: 'a', n: 'x', key: 'a/x' }, { name: 'cluster-scoped', ns: '', n: 'x', key: 'x' }];
    for (const c of cases) {
      assert.equal(metaNamespaceKey(obj(c.ns, c.n)), c.key, c.name);
      assert.deepEqual(splitMetaNamespaceKey(c.key), { namespace: c.ns, name: c.n }, c.name);
    }
  });

  it('keeps the namespace index and custom indexes in step with set, delete and replace', () => {
    const idx = new Indexer({ owner: byOwner });
    idx.set(obj('a', 'x', 'o1'));
    idx.set(obj('a', 'y', 'o1'));
    idx.set(obj('b', 'z', 'o2'));
    assert.deepEqual(idx.byNamespace('a').map((o) => o.metadata.name), ['x', 'y']);
    assert.deepEqual(idx.byIndex('owner', 'o1').map((o) => o.metadata.name), ['x', 'y']);
    idx.set(obj('a', 'y', 'o2'));
    assert.deepEqual(idx.byIndex('owner', 'o1').map((o) => o.metadata.name), ['x'], 'an update moves the object between index values');
    assert.equal(idx.delete('a/x')?.metadata.name, 'x');
    assert.deepEqual(idx.byIndex('owner', 'o1'), []);
    idx.replace([obj('c', 'w', 'o3')]);
    assert.deepEqual(idx.listKeys(), ['c/w']);
    assert.deepEqual(idx.byNamespace('a'), []);
    assert.deepEqual(idx.byIndex('owner', 'o3').map((o) => o.metadata.name), ['w']);
  });

  it('builds an index added later over what is stored, and refuses a taken name or an unknown index', () => {
    const idx = new Indexer();
    idx.set(obj('a', 'x', 'o1'));
    idx.addIndexers({ owner: byOwner });
    assert.deepEqual(idx.byIndex('owner', 'o1').map((o) => o.metadata.name), ['x']);
    assert.throws(() => idx.addIndexers({ owner: byOwner }), /indexer conflict: owner/);
    assert.throws(() => idx.byIndex('nope', 'x'), /index with name nope does not exist/);
  });
});
