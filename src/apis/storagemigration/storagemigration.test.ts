import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { storagemigrationGroup } from './install.ts';
import { storageVersionMigrations } from './storageversionmigration/storageversionmigration.ts';
import type { StorageVersionMigration } from './v1beta1/types.ts';

const ctx = systemContext('');
const svm = (resource: { group?: string; resource?: string }, status?: StorageVersionMigration['status']): StorageVersionMigration =>
  ({ metadata: { name: 'm', resourceVersion: '5' }, spec: { resource }, ...(status !== undefined ? { status } : {}) });
const cond = (type: string, status: string): { type: string; status: string; reason: string; lastTransitionTime: string; message: string } =>
  ({ type, status, reason: type, lastTransitionTime: '2024-01-01T00:00:00Z', message: '' });
const { strategy } = storageVersionMigrations;
const statusStrategy = storageVersionMigrations.statusStrategy;

describe('storageversionmigrations (storagemigration.k8s.io/v1beta1)', () => {
  it('is served in v1beta1 only (off by default: a beta after v1.24)', () => {
    assert.deepEqual(storagemigrationGroup.versions.map((v) => [v.version, v.resources.map((r) => r.resource)]), [['v1beta1', ['storageversionmigrations']]]);
    assert.equal(storageVersionMigrations.namespaced, false);
    assert.equal('shortNames' in storageVersionMigrations, false);
  });
  const cases: { name: string; obj: StorageVersionMigration; want: string[] }[] = [
    { name: 'valid', obj: svm({ group: 'apps', resource: 'deployments' }), want: [] },
    { name: 'core group', obj: svm({ resource: 'secrets' }), want: [] },
    { name: 'resource required', obj: svm({ group: 'apps' }), want: ['spec.resource.resource: Required value: resource is required to be set'] },
    { name: 'resource a DNS-1035 label, group a DNS subdomain', obj: svm({ group: 'Apps', resource: '1pods' }), want: [
      'spec.resource.resource: Invalid value: "1pods": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
      'spec.resource.group: Invalid value: "Apps": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    ] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('status is cleared on create and kept on update; updates need a resourceVersion', () => {
    const o = svm({ resource: 'secrets' }, { resourceVersion: '9' });
    strategy.prepareForCreate(ctx, o);
    assert.deepEqual(o.status, {});
    const u = svm({ resource: 'secrets' }, { resourceVersion: '1' });
    strategy.prepareForUpdate(ctx, u, svm({ resource: 'secrets' }, { resourceVersion: '7' }));
    assert.deepEqual(u.status, { resourceVersion: '7' });
    assert.equal(strategy.allowUnconditionalUpdate, false);
    assert.equal(strategy.allowCreateOnUpdate, false);
  });
  it('Go writes spec.resource.group and status even when empty', () => {
    const o = svm({ resource: 'secrets' });
    strategy.canonicalize?.(o);
    assert.deepEqual([o.spec, o.status], [{ resource: { group: '', resource: 'secrets' } }, {}]);
  });
  it('the spec is immutable', () => {
    assert.deepEqual(strategy.validateUpdate(ctx, svm({ group: 'apps', resource: 'statefulsets' }), svm({ group: 'apps', resource: 'deployments' })).map(formatFieldError),
      ['spec: Invalid value: storagemigration.StorageVersionMigrationSpec{Resource:v1.GroupResource{Group:"apps", Resource:"statefulsets"}}: field is immutable']);
  });
  it('status: a well-formed resourceVersion, set once, and consistent conditions', () => {
    const old = svm({ resource: 'secrets' });
    const v = (s: StorageVersionMigration['status'], o = old): string[] => (statusStrategy?.validateUpdate(ctx, svm({ resource: 'secrets' }, s), o) ?? []).map(formatFieldError);
    assert.deepEqual(v({ resourceVersion: '12', conditions: [cond('Running', 'True')] }), []);
    assert.deepEqual(v({ conditions: [] }), ['status.resourceVersion: Invalid value: "": resource version is not well formed: ']);
    assert.deepEqual(v({ resourceVersion: '012' }), ['status.resourceVersion: Invalid value: "012": resource version is not well formed: 012']);
    assert.deepEqual(v({ resourceVersion: '13' }, svm({ resource: 'secrets' }, { resourceVersion: '12' })),
      ['status.resourceVersion: Invalid value: "13": field is immutable']);
    const both = v({ resourceVersion: '12', conditions: [cond('Succeeded', 'True'), cond('Failed', 'True')] });
    assert.equal(both.length, 1);
    assert.match(both[0] ?? '', /^status\.conditions: Invalid value: \[\]v1\.Condition\{v1\.Condition\{Type:"Succeeded", Status:"True", ObservedGeneration:0, LastTransitionTime:time\.Date\(2024, time\.January, 1, 0, 0, 0, 0, time\.Local\), Reason:"Succeeded", Message:""\}, .*\}: Both success and failed conditions cannot be true at the same time$/);
    const back = v({ resourceVersion: '12', conditions: [cond('Succeeded', 'False')] }, svm({ resource: 'secrets' }, { resourceVersion: '12', conditions: [cond('Succeeded', 'True')] }));
    assert.match(back[0] ?? '', /: Success condition cannot be set to false once it is true$/);
    assert.deepEqual(v({ resourceVersion: '12', conditions: [{ type: 'Running', status: 'Maybe', reason: '', lastTransitionTime: '' }] }), [
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions[0].lastTransitionTime: Required value',
      'status.conditions[0].reason: Required value',
    ]);
  });
  it('status updates keep spec, labels and annotations (ResetObjectMetaForStatus)', () => {
    const o = svm({ resource: 'pods' });
    o.metadata.labels = { a: 'b' };
    statusStrategy?.prepareForUpdate(ctx, o, svm({ resource: 'secrets' }));
    assert.deepEqual([o.spec, o.metadata.labels], [{ resource: { resource: 'secrets' } }, undefined]);
  });
  it('table: NAME RESOURCE', () => {
    assert.deepEqual(storageVersionMigrations.table.map((c) => c.name), ['Name', 'Resource']);
    assert.deepEqual(storageVersionMigrations.table.map((c) => c.cell(svm({ group: 'apps', resource: 'deployments' }), 0)), ['m', 'deployments.apps']);
  });
});
