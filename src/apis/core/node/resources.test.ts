import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Node, NodeStatus } from '../v1/types.ts';
import { nodes } from './node.ts';
import { validateNodeAddresses, validateNodeResources } from './resources.ts';

const node = (status: NodeStatus): Node => ({ metadata: { name: 'n', resourceVersion: '1' }, spec: {}, status });

describe('node capacity and allocatable (ValidateNodeResources)', () => {
  const cases: { name: string; status: NodeStatus; want: string[] }[] = [
    { name: 'valid quantities', status: { capacity: { cpu: '500m', memory: '1Gi', pods: '110', 'example.com/dongle': '2' } }, want: [] },
    { name: 'negative cpu', status: { capacity: { cpu: '-1' } }, want: ['status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0'] },
    { name: 'fractional pods (an integer resource)', status: { allocatable: { pods: '1500m' } }, want: ['status.allocatable.pods: Invalid value: "1500m": must be an integer'] },
    { name: 'a fractional extended resource, canonical', status: { capacity: { 'example.com/dongle': '0.5' } }, want: ['status.capacity.example.com/dongle: Invalid value: "500m": must be an integer'] },
    { name: 'fractional cpu is fine', status: { capacity: { cpu: '0.5' } }, want: [] },
    { name: 'a kubernetes.io resource is not extended', status: { capacity: { 'kubernetes.io/foo': '0.5' } }, want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateNodeResources(node(c.status)).map(formatFieldError), c.want));
});

describe('node addresses on update', () => {
  it('the same type and address twice is a duplicate, printed with Go field names', () => {
    const n = node({ addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'ExternalIP', address: '10.0.0.1' }, { type: 'InternalIP', address: '10.0.0.1' }] });
    assert.deepEqual(validateNodeAddresses(n).map(formatFieldError), ['status.addresses[2]: Duplicate value: {"Type":"InternalIP","Address":"10.0.0.1"}']);
  });
  it('the status strategy runs both checks', () => {
    const ctx = systemContext('');
    const old = node({});
    const next = node({ capacity: { cpu: '-1' }, addresses: [{ type: 'Hostname', address: 'n' }, { type: 'Hostname', address: 'n' }] });
    nodes.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(nodes.statusStrategy.validateUpdate(ctx, next, old).map(formatFieldError), [
      'status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0',
      'status.addresses[1]: Duplicate value: {"Type":"Hostname","Address":"n"}',
    ]);
  });
});
