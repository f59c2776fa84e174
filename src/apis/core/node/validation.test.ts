import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { Node } from '../v1/types.ts';
import { normalizePodCIDRs, validateNode, validateNodeUpdate } from './validation.ts';

const node = (spec: Node['spec'] = {}, status: Node['status'] = {}, annotations?: Record<string, string>): Node =>
  ({ metadata: { name: 'n', ...(annotations === undefined ? {} : { annotations }) }, spec, status });
const errs = (n: Node, old?: Node): string[] => (old === undefined ? validateNode(n) : validateNodeUpdate(n, old)).map(formatFieldError).sort();

describe('Node validation (ValidateNode, ValidateNodeUpdate), as kube-apiserver v1.36 answers', () => {
  const cases: { name: string; node: Node; old?: Node; want: string[] }[] = [
    { name: 'taints are reported under metadata, duplicates as the Go struct', node: node({ taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', value: 'x', effect: 'NoSchedule' }] }),
      want: ['metadata.taints[1]: Duplicate value: {"Key":"k","Value":"x","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair'] },
    { name: 'podCIDR with host bits', node: node({ podCIDRs: ['10.1.0.1/24'] }), want: ['spec.podCIDRs[0]: Invalid value: "10.1.0.1/24": must not have bits set beyond the prefix length'] },
    { name: 'two IPv4 podCIDRs', node: node({ podCIDRs: ['10.1.0.0/24', '10.2.0.0/24'] }),
      want: ['spec.podCIDRs: Invalid value: ["10.1.0.0/24","10.2.0.0/24"]: may specify no more than one CIDR for each IP family'] },
    { name: 'dual-stack podCIDRs', node: node({ podCIDRs: ['10.1.0.0/24', 'fd00::/64'] }), want: [] },
    { name: 'taints annotation not JSON', node: node({}, {}, { 'scheduler.alpha.kubernetes.io/taints': 'bogus' }),
      want: ['metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/taints": invalid character \'b\' looking for beginning of value'] },
    { name: 'declared features unsorted and repeated', node: node({}, { declaredFeatures: ['B', 'A', 'A'] }),
      want: ['status.declaredFeatures[1]: Invalid value: "A": list must be sorted alphabetically', 'status.declaredFeatures[2]: Duplicate value: "A"'] },
    { name: 'swap capacity not positive', node: node({}, { nodeInfo: { swap: { capacity: -1 } } }),
      want: ['metadata.nodeSwapStatus.capacity: Invalid value: -1: must be greater than zero'] },
    { name: 'externalID changed', node: node({ externalID: 'x' }), old: node(), want: ['spec.externalID: Forbidden: may not be updated'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errs(c.node, c.old), c.want.sort()));

  it('podCIDR wins over a different podCIDRs[0], as kube converts v1 nodes', () => {
    const n = node({ podCIDR: '10.1.0.0/24', podCIDRs: ['10.2.0.0/24'] });
    normalizePodCIDRs(n);
    assert.deepEqual(n.spec, { podCIDR: '10.1.0.0/24', podCIDRs: ['10.1.0.0/24'] });
  });
});
