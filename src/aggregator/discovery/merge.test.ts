import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DiscoveryGroup, MergedGroup } from '../../endpoints/discovery/types.ts';
import type { APIServiceGroupVersion, RemoteEntry } from './manager.ts';
import { AggregatorDiscovery } from './merge.ts';

const local: DiscoveryGroup[] = [
  { name: 'apiregistration.k8s.io', versions: [{ group: 'apiregistration.k8s.io', version: 'v1', resources: [] }] },
  { name: 'apps', versions: [{ group: 'apps', version: 'v1', resources: [] }] },
  { name: 'crd.example.com', versions: [{ group: 'crd.example.com', version: 'v1', resources: [] }] },
];

const svc = (group: string, version: string, groupPriorityMinimum: number, remote: boolean): APIServiceGroupVersion =>
  ({ group, version, groupPriorityMinimum, versionPriority: 15, remote });

function merger(services: APIServiceGroupVersion[], entries: RemoteEntry[]): AggregatorDiscovery {
  const byName = new Map(services.map((s) => [`${s.version}.${s.group}`, s]));
  return new AggregatorDiscovery({
    apiServices: () => services, priority: (g, v) => byName.get(`${v}.${g}`), remoteEntries: () => entries,
  }, (g) => (g === 'apps' ? { groupPriorityMinimum: 17800, versionPriority: 15 } : { groupPriorityMinimum: 1000, versionPriority: 100 }));
}

const shape = (groups: readonly MergedGroup[]): string[] =>
  groups.map((g) => `${g.name}:${g.versions.map((v) => ('remote' in v ? `${v.version}(${v.remote?.freshness ?? 'listed'})` : v.version)).join(',')}`);

describe('discovery merged with APIServices (handler_apis.go, aggregated resource manager)', () => {
  const services = [svc('apps', 'v1', 17800, false), svc('remote.example.com', 'v1', 19000, true), svc('down.example.com', 'v1', 100, true),
    svc('local-only.example.com', 'v1', 500, false)];
  const entries: RemoteEntry[] = [{ ...svc('remote.example.com', 'v1', 19000, true), discovery: { version: 'v1', resources: [], freshness: 'Current' } }];

  it('legacy /apis: every APIService group version, apiregistration first, by priority', () => {
    assert.deepEqual(shape(merger(services, entries).legacy(local)), [
      'apiregistration.k8s.io:v1', 'remote.example.com:v1(listed)', 'apps:v1', 'crd.example.com:v1', 'local-only.example.com:v1(listed)',
      'down.example.com:v1(listed)',
    ]);
  });

  it('aggregated /apis: local group versions and the synced remote ones, by priority', () => {
    assert.deepEqual(shape(merger(services, entries).aggregated(local)), [
      'apiregistration.k8s.io:v1', 'remote.example.com:v1(Current)', 'apps:v1', 'crd.example.com:v1',
    ]);
  });

  it('a remote APIService of a group version served here wins in aggregated discovery', () => {
    const over: RemoteEntry = { ...svc('apps', 'v1', 17800, true), discovery: { version: 'v1', freshness: 'Stale' } };
    assert.deepEqual(shape(merger([over], [over]).aggregated(local)), ['apiregistration.k8s.io:v1', 'apps:v1(Stale)', 'crd.example.com:v1']);
  });
});
