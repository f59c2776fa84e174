import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyRule } from './types.ts';
import { breakdownRule, covers } from './policy-comparator.ts';

describe('breakdownRule', () => {
  it('one verb × group × resource × name, then one verb × URL', () => {
    assert.deepEqual(breakdownRule({ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods'], resourceNames: ['a'] }), [
      { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
    ]);
    assert.deepEqual(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }), [
      { nonResourceURLs: ['/a'], verbs: ['get'] }, { nonResourceURLs: ['/b'], verbs: ['get'] },
    ]);
  });
});

describe('covers', () => {
  const cases: { name: string; owner: PolicyRule[]; servant: PolicyRule[]; missing: PolicyRule[] }[] = [
    { name: 'exact', owner: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], missing: [] },
    { name: 'spread over two owner rules',
      owner: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }],
      servant: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], missing: [] },
    { name: 'a missing verb is reported alone', owner: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      servant: [{ verbs: ['get', 'watch'], apiGroups: [''], resources: ['pods'] }],
      missing: [{ apiGroups: [''], resources: ['pods'], verbs: ['watch'] }] },
    { name: 'wildcards', owner: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      servant: [{ verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments/scale'], resourceNames: ['x'] }], missing: [] },
    { name: '*/subresource', owner: [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }],
      servant: [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale', 'deployments'] }],
      missing: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }] },
    { name: 'names narrow the owner', owner: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }],
      missing: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
    { name: 'an unnamed owner covers names', owner: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] }], missing: [] },
    { name: 'URL prefixes', owner: [{ verbs: ['get'], nonResourceURLs: ['/healthz*', '/api'] }],
      servant: [{ verbs: ['get'], nonResourceURLs: ['/healthz/etcd', '/api', '/apis'] }],
      missing: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }] },
    { name: 'resource rules do not cover URLs', owner: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      servant: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }], missing: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = covers(c.owner, c.servant);
      assert.deepEqual(got.missing, c.missing);
      assert.equal(got.covered, c.missing.length === 0);
    });
  }
});
