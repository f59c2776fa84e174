import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { resourceV1beta1Conversions } from './conversion.ts';
import { resourceClaims, resourceClaimState } from './resourceclaim/resourceclaim.ts';
import { resourceSlices } from './resourceslice/resourceslice.ts';
import type { ResourceClaim, ResourceSlice } from './v1/types.ts';

const ctx = systemContext('default');
const conv = (kind: string) => {
  const c = resourceV1beta1Conversions.find((x) => x.kind === kind);
  if (c === undefined) throw new Error(kind);
  return c;
};
const obj = (o: object): KubeObject => structuredClone(o) as KubeObject;

describe('resource.k8s.io v1beta1 conversion', () => {
  const betaClaim = { metadata: { name: 'c' }, spec: { devices: { requests: [
    { name: 'gpu', deviceClassName: 'gpu.example.com', count: 2, allocationMode: 'ExactCount' },
    { name: 'any', firstAvailable: [{ name: 'a', deviceClassName: 'x' }] },
  ] } } };
  const v1Claim = { metadata: { name: 'c' }, spec: { devices: { requests: [
    { name: 'gpu', exactly: { deviceClassName: 'gpu.example.com', count: 2, allocationMode: 'ExactCount' } },
    { name: 'any', firstAvailable: [{ name: 'a', deviceClassName: 'x' }] },
  ] } } };
  it('moves single-class fields under exactly and back', () => {
    assert.deepEqual(conv('ResourceClaim').toHub(obj(betaClaim)), v1Claim);
    assert.deepEqual(conv('ResourceClaim').fromHub(obj(v1Claim)), betaClaim);
  });
  it('converts templates one level down', () => {
    const beta = { metadata: { name: 't' }, spec: { spec: betaClaim.spec } };
    assert.deepEqual(conv('ResourceClaimTemplate').toHub(obj(beta)), { metadata: { name: 't' }, spec: { spec: v1Claim.spec } });
  });
  it('flattens basic devices of slices and wraps them back', () => {
    const beta = { metadata: { name: 's' }, spec: { driver: 'd', devices: [{ name: 'dev0', basic: { attributes: { a: { int: 1 } }, capacity: { mem: { value: '1Gi' } } } }] } };
    const v1 = { metadata: { name: 's' }, spec: { driver: 'd', devices: [{ name: 'dev0', attributes: { a: { int: 1 } }, capacity: { mem: { value: '1Gi' } } }] } };
    assert.deepEqual(conv('ResourceSlice').toHub(obj(beta)), v1);
    assert.deepEqual(conv('ResourceSlice').fromHub(obj(v1)), beta);
  });
});

describe('resourceclaims', () => {
  const claim = (): ResourceClaim => ({ metadata: { name: 'c', namespace: 'default' }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } } });
  it('defaults allocationMode and count', () => {
    const c = claim();
    resourceClaims.defaults(c);
    assert.deepEqual(c.spec?.devices?.requests?.[0]?.exactly, { deviceClassName: 'gpu.example.com', allocationMode: 'ExactCount', count: 1 });
    assert.deepEqual(resourceClaims.strategy.validate(ctx, c), []);
  });
  it('requires exactly one of exactly and firstAvailable', () => {
    const c: ResourceClaim = { metadata: { name: 'c', namespace: 'default' }, spec: { devices: { requests: [{ name: 'gpu' }] } } };
    assert.deepEqual(resourceClaims.strategy.validate(ctx, c).map(formatFieldError),
      ['spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required']);
  });
  it('spec is immutable, status kept', () => {
    const old = { ...claim(), status: { allocation: {} } };
    const next = claim();
    next.spec = { devices: { requests: [] } };
    resourceClaims.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.status, { allocation: {} });
    assert.equal(resourceClaims.strategy.validateUpdate(ctx, next, old).map(formatFieldError)[0]?.startsWith('spec: Invalid value:'), true);
  });
  it('state column', () => {
    assert.equal(resourceClaimState(claim()), 'pending');
    assert.equal(resourceClaimState({ ...claim(), status: { allocation: {}, reservedFor: [{}] } }), 'allocated,reserved');
    assert.equal(resourceClaimState({ ...claim(), metadata: { name: 'c', deletionTimestamp: 'x' } }), 'deleted');
  });
});

describe('resourceslices', () => {
  it('requires one node selection field and selects by node and driver', () => {
    const s: ResourceSlice = { metadata: { name: 's' }, spec: { driver: 'gpu.example.com', pool: { name: 'p', resourceSliceCount: 1 }, nodeName: 'n1' } };
    assert.deepEqual(resourceSlices.strategy.validate(ctx, s), []);
    assert.deepEqual(resourceSlices.selectableFields(s), { 'metadata.name': 's', 'spec.nodeName': 'n1', 'spec.driver': 'gpu.example.com' });
    const both: ResourceSlice = { metadata: { name: 's' }, spec: { ...s.spec, allNodes: true } };
    assert.deepEqual(resourceSlices.strategy.validate(ctx, both).map(formatFieldError),
      ['spec: Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set']);
  });
});
