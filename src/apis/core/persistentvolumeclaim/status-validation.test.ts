import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { PersistentVolumeClaim, PersistentVolumeClaimStatus } from '../v1/types.ts';
import { persistentVolumeClaims } from './persistentvolumeclaim.ts';
import { validatePersistentVolumeClaimStatusUpdate } from './status-validation.ts';

const RESIZE = 'supported values: "ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending"';
const NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const claim = (status: PersistentVolumeClaimStatus): PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'default', resourceVersion: '1' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  status,
});

describe('PersistentVolumeClaim status update (ValidatePersistentVolumeClaimStatusUpdate)', () => {
  const cases: { name: string; status: PersistentVolumeClaimStatus; want: string[] }[] = [
    { name: 'phase and conditions are not checked', status: { phase: 'Bogus', conditions: [{ type: 'Resizing', status: 'Bogus' }] }, want: [] },
    { name: 'a resize in progress', status: { phase: 'Bound', capacity: { storage: '1Gi' }, allocatedResources: { storage: '2Gi' }, allocatedResourceStatuses: { storage: 'NodeResizePending' } }, want: [] },
    { name: 'negative capacity, shown as its integer value', status: { capacity: { storage: '-1Gi' } }, want: ['status.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity'] },
    { name: 'a negative fraction rounds away from zero', status: { capacity: { storage: '-500m' } }, want: ['status.capacity[storage]: Invalid value: -1: must be a valid resource quantity'] },
    { name: 'capacity keys are not checked', status: { capacity: { cpu: '1' } }, want: [] },
    { name: 'negative allocated storage', status: { allocatedResources: { storage: '-1Gi' } }, want: ['status.allocatedResources[storage]: Invalid value: -1073741824: must be a valid resource quantity'] },
    { name: 'allocated cpu', status: { allocatedResources: { cpu: '1' } }, want: ['status.allocatedResources: Unsupported value: "cpu": supported values: "storage"'] },
    { name: 'allocated kubernetes.io resource', status: { allocatedResources: { 'kubernetes.io/foo': '1' } }, want: ['status.allocatedResources: Unsupported value: "kubernetes.io/foo": supported values: "storage"'] },
    { name: 'allocated extended resource', status: { allocatedResources: { 'example.com/foo': '1' } }, want: [] },
    { name: 'allocated key invalid: its quantity is not checked', status: { allocatedResources: { 'bad key!': '-1' } }, want: [`status.allocatedResources: Invalid value: "bad key!": ${NAME_PART}`] },
    { name: 'unknown resize status names the key', status: { allocatedResourceStatuses: { storage: 'Bogus' } }, want: [`status.allocatedResourceStatuses: Unsupported value: "storage": ${RESIZE}`] },
    { name: 'resize status of cpu', status: { allocatedResourceStatuses: { cpu: 'NodeResizePending' } }, want: ['status.allocatedResourceStatuses: Unsupported value: "cpu": supported values: "storage"'] },
    { name: 'resize status key and value invalid', status: { allocatedResourceStatuses: { 'bad key!': 'Bogus' } },
      want: [`status.allocatedResourceStatuses: Invalid value: "bad key!": ${NAME_PART}`, `status.allocatedResourceStatuses: Unsupported value: "bad key!": ${RESIZE}`] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validatePersistentVolumeClaimStatusUpdate(claim(c.status)).map(formatFieldError), c.want));

  it('the status strategy runs it', () => {
    const ctx = systemContext('default');
    const next = claim({ capacity: { storage: '-1' } });
    const old = claim({ phase: 'Pending' });
    persistentVolumeClaims.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(persistentVolumeClaims.statusStrategy.validateUpdate(ctx, next, old).map(formatFieldError), ['status.capacity[storage]: Invalid value: -1: must be a valid resource quantity']);
  });
});
