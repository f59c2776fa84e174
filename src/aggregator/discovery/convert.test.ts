import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convertLegacyResources, parseAggregatedDiscovery } from './convert.ts';

describe('backend discovery documents as the aggregator re-encodes them', () => {
  it('an APIGroupDiscoveryList: known fields in kube\'s order, a missing responseKind empty', () => {
    const got = parseAggregatedDiscovery({
      kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2',
      items: [{ metadata: { name: 'wardle.example.com', labels: { x: 'y' } }, versions: [{
        freshness: 'Current', version: 'v1', extra: 1,
        resources: [{ verbs: ['get'], resource: 'flunders', scope: 'Namespaced', singularResource: 'flunder', shortNames: [],
          subresources: [{ verbs: ['get'], subresource: 'status' }] }],
      }, { version: 'v2' }] }],
    });
    assert.deepEqual(got && [...got.entries()], [
      ['wardle.example.com/v1', { version: 'v1', resources: [{
        resource: 'flunders', responseKind: { group: '', version: '', kind: '' }, scope: 'Namespaced', singularResource: 'flunder', verbs: ['get'],
        subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: '' }, verbs: ['get'] }],
      }] }],
      ['wardle.example.com/v2', { version: 'v2' }],
    ]);
    assert.equal(JSON.stringify(Object.keys(got?.get('wardle.example.com/v1')?.resources?.[0] ?? {})),
      JSON.stringify(['resource', 'responseKind', 'scope', 'singularResource', 'verbs', 'subresources']));
  });

  it('a body that is no list is refused', () => {
    assert.equal(parseAggregatedDiscovery({ kind: 'APIGroupList', groups: [] }), undefined);
    assert.equal(parseAggregatedDiscovery('nope'), undefined);
  });

  const legacyCases: { name: string; resources: Record<string, unknown>[]; want?: Record<string, unknown>[]; throws?: RegExp }[] = [
    {
      name: 'resources with their subresources folded in',
      resources: [
        { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'], shortNames: ['fl'], categories: ['all'] },
        { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get', 'patch'] },
        { name: 'flunders/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get'] },
      ],
      want: [{
        resource: 'flunders', responseKind: { group: '', version: '', kind: 'Flunder' }, scope: 'Namespaced', singularResource: 'flunder',
        verbs: ['get', 'list'], shortNames: ['fl'], categories: ['all'],
        subresources: [
          { subresource: 'status', responseKind: { group: '', version: '', kind: 'Flunder' }, verbs: ['get', 'patch'] },
          { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get'] },
        ],
      }],
    },
    {
      name: 'a subresource without its resource gets a bare parent',
      resources: [{ name: 'fischers/status', namespaced: false, kind: '', verbs: ['get'] }],
      want: [{
        resource: 'fischers', responseKind: { group: '', version: '', kind: '' }, scope: 'Cluster', singularResource: '', verbs: [],
        subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: '' }, verbs: ['get'] }],
      }],
    },
    {
      name: 'a subresource of another scope than its resource fails',
      resources: [{ name: 'a', namespaced: true, kind: 'A', verbs: [] }, { name: 'a/b', namespaced: false, kind: 'A', verbs: [] }],
      throws: /Parent a \(scope: Namespaced\) and subresource b \(scope: Cluster\) scope do not match/,
    },
  ];
  for (const c of legacyCases) {
    it(`legacy APIResourceList: ${c.name}`, () => {
      const body = { kind: 'APIResourceList', groupVersion: 'wardle.example.com/v1', resources: c.resources };
      if (c.throws !== undefined) assert.throws(() => convertLegacyResources(body), c.throws);
      else assert.deepEqual(convertLegacyResources(body), c.want);
    });
  }
});
