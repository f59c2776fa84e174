import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { ResourceClaim } from '../v1/types.ts';
import { validateResourceClaimStatusUpdate } from './status.ts';

const allocation = { devices: { results: [{ request: 'r', driver: 'd.example.com', pool: 'p', device: 'x' }] } };
const pod = (uid: string): Record<string, string> => ({ resource: 'pods', name: `p-${uid}`, uid });
const claim = (status: NonNullable<ResourceClaim['status']>, deleting = false): ResourceClaim => ({
  metadata: { name: 'c', namespace: 'default', ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
  spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'c' } }] } }, status,
});

describe('ResourceClaim status update: reservedFor (validateResourceClaimStatusUpdate)', () => {
  const cases: { name: string; next: ResourceClaim; old?: ResourceClaim; want: string[] }[] = [
    { name: 'allocated and reserved', next: claim({ allocation, reservedFor: [pod('a')] }), want: [] },
    { name: 'reserved but not allocated', next: claim({ reservedFor: [pod('a')] }), want: ['status.reservedFor: Forbidden: may not be specified when `allocated` is not set'] },
    { name: 'a consumer twice', next: claim({ allocation, reservedFor: [pod('a'), pod('a')] }), want: ['status.reservedFor[1]: Duplicate value: "a"'] },
    { name: 'a consumer without resource, name or uid', next: claim({ allocation, reservedFor: [{}] }),
      want: ['status.reservedFor[0].resource: Required value', 'status.reservedFor[0].name: Required value', 'status.reservedFor[0].uid: Required value'] },
    { name: 'at most 256 consumers', next: claim({ allocation, reservedFor: Array.from({ length: 257 }, (_, i) => pod(String(i))) }),
      want: ['status.reservedFor: Too many: 257: must have at most 256 items'] },
    { name: 'a claim being deleted may drop consumers', next: claim({ allocation, reservedFor: [pod('a')] }, true), old: claim({ allocation, reservedFor: [pod('a'), pod('b')] }), want: [] },
    { name: 'a claim being deleted may not gain consumers', next: claim({ allocation, reservedFor: [pod('a'), pod('c')] }, true), old: claim({ allocation, reservedFor: [pod('a')] }),
      want: ['status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateResourceClaimStatusUpdate(c.next, c.old ?? claim({})).map(formatFieldError), c.want));
});

describe('ResourceClaim status update: allocation and device statuses', () => {
  const other = { devices: { results: [{ request: 'r', driver: 'd.example.com', pool: 'p', device: 'y' }] } };
  const cases: { name: string; next: ResourceClaim; old?: ResourceClaim; want: string[] }[] = [
    { name: 'a new allocation names the claim\'s requests', next: claim({ allocation: { devices: { results: [{ request: 'q', driver: 'd.example.com', pool: 'p', device: 'x' }] } } }),
      want: ['status.allocation.devices.results[0].request: Invalid value: "q": must be the name of a request in the claim or the name of a request and a subrequest separated by \'/\''] },
    { name: 'an allocation is fixed once set', next: claim({ allocation: other }), old: claim({ allocation }),
      want: ['status.allocation: Invalid value: {"Devices":{"Results":[{"Request":"r","Driver":"d.example.com","Pool":"p","Device":"y","AdminAccess":null,"Tolerations":null,' +
        '"BindingConditions":null,"BindingFailureConditions":null,"ShareID":null,"ConsumedCapacity":null}],"Config":null},"NodeSelector":null,"AllocationTimestamp":null}: field is immutable'] },
    { name: 'a shareID is a UUID', next: claim({ allocation: { devices: { results: [{ ...allocation.devices.results[0], shareID: 'abc' }] } } }),
      want: ['status.allocation.devices.results[0].shareID: Invalid value: "abc": error validating uid: invalid UUID length: 3'] },
    { name: 'a device status is for an allocated device', next: claim({ allocation, devices: [{ driver: 'd.example.com', pool: 'p', device: 'z' }] }),
      want: ['status.devices[0]: Invalid value: {"Driver":"d.example.com","Pool":"p","Device":"z","ShareID":""}: must be an allocated device in the claim'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateResourceClaimStatusUpdate(c.next, c.old ?? claim({})).map(formatFieldError), c.want));
});
