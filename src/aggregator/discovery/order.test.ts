import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregatedOrder, legacyOrder, type PrioritizedGroupVersion } from './order.ts';

const gv = (group: string, version: string, groupPriorityMinimum: number, versionPriority: number): PrioritizedGroupVersion =>
  ({ group, version, groupPriorityMinimum, versionPriority });
const names = (groups: PrioritizedGroupVersion[][]): string[][] => groups.map((g) => g.map((v) => `${v.version}.${v.group}`));

describe('discovery order from APIService priorities', () => {
  const cases: { name: string; in: PrioritizedGroupVersion[]; legacy: string[][]; aggregated: string[][] }[] = [
    {
      name: 'higher groupPriorityMinimum first, whatever the input order',
      in: [gv('flowcontrol.apiserver.k8s.io', 'v1', 16100, 21), gv('resource.k8s.io', 'v1', 16200, 21), gv('discovery.k8s.io', 'v1', 16200, 15)],
      legacy: [['v1.discovery.k8s.io'], ['v1.resource.k8s.io'], ['v1.flowcontrol.apiserver.k8s.io']],
      aggregated: [['v1.discovery.k8s.io'], ['v1.resource.k8s.io'], ['v1.flowcontrol.apiserver.k8s.io']],
    },
    {
      name: 'versions: higher versionPriority first, then the kube-aware greater version',
      in: [gv('autoscaling', 'v1', 17500, 15), gv('autoscaling', 'v2', 17500, 30), gv('z.example.com', 'v1beta1', 1000, 100), gv('z.example.com', 'v1', 1000, 100), gv('z.example.com', 'v2alpha1', 1000, 100)],
      legacy: [['v2.autoscaling', 'v1.autoscaling'], ['v1.z.example.com', 'v1beta1.z.example.com', 'v2alpha1.z.example.com']],
      aggregated: [['v2.autoscaling', 'v1.autoscaling'], ['v1.z.example.com', 'v1beta1.z.example.com', 'v2alpha1.z.example.com']],
    },
    {
      // Legacy sorts APIService names ("v1.b..." before "v2.a..."); aggregated sorts group names.
      name: 'equal priority: legacy by APIService name, aggregated by group name',
      in: [gv('a.example.com', 'v2', 1000, 100), gv('b.example.com', 'v1', 1000, 100)],
      legacy: [['v1.b.example.com'], ['v2.a.example.com']],
      aggregated: [['v2.a.example.com'], ['v1.b.example.com']],
    },
    {
      name: 'a group stands where its highest groupPriorityMinimum puts it',
      in: [gv('m.example.com', 'v1', 500, 15), gv('n.example.com', 'v1', 900, 15), gv('m.example.com', 'v2', 2000, 15)],
      legacy: [['v2.m.example.com', 'v1.m.example.com'], ['v1.n.example.com']],
      aggregated: [['v2.m.example.com', 'v1.m.example.com'], ['v1.n.example.com']],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(names(legacyOrder(c.in)), c.legacy);
      assert.deepEqual(names(aggregatedOrder(c.in)), c.aggregated);
    });
  }
});
