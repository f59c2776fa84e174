import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { apiserverinternalGroup } from './install.ts';
import { storageVersions } from './storageversion/storageversion.ts';
import type { StorageVersion } from './v1alpha1/types.ts';

const ctx = systemContext('');
const sv = (name: string, status?: StorageVersion['status']): StorageVersion =>
  ({ metadata: { name, resourceVersion: '3' }, spec: {}, ...(status !== undefined ? { status } : {}) });
const { strategy } = storageVersions;
const statusValidate = (s: StorageVersion['status']): string[] =>
  (storageVersions.statusStrategy.validateUpdate(ctx, sv('apps.deployments', s), sv('apps.deployments')) ?? []).map(formatFieldError);

describe('storageversions (internal.apiserver.k8s.io/v1alpha1)', () => {
  it('is served in v1alpha1 (off by default)', () => {
    assert.deepEqual(apiserverinternalGroup.versions.map((v) => [v.version, v.resources.map((r) => r.resource)]), [['v1alpha1', ['storageversions']]]);
  });
  it('names are <group>.<resource>', () => {
    assert.deepEqual(strategy.validate(ctx, sv('apps.deployments')).map(formatFieldError), []);
    assert.deepEqual(strategy.validate(ctx, sv('deployments')).map(formatFieldError),
      ['metadata.name: Invalid value: "deployments": name must be in the form of <group>.<resource>']);
    assert.deepEqual(strategy.validate(ctx, sv('apps.1x')).map(formatFieldError), [
      'metadata.name: Invalid value: "apps.1x": the resource segment a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
    ]);
  });
  it('status: decodable versions include the encoding one, the common version agrees', () => {
    assert.deepEqual(statusValidate({ storageVersions: [{ apiServerID: 'a1', encodingVersion: 'apps/v1', decodableVersions: ['apps/v1'], servedVersions: ['apps/v1'] }],
      commonEncodingVersion: 'apps/v1' }), []);
    assert.deepEqual(statusValidate({ storageVersions: [{ apiServerID: 'a1', encodingVersion: 'apps/v1', decodableVersions: ['apps/v2'], servedVersions: ['apps/v3'] }] }), [
      'status.storageVersions[0].decodableVersions: Invalid value: []string{"apps/v2"}: decodableVersions must include encodingVersion apps/v1',
      'status.storageVersions[0].servedVersions[0]: Invalid value: "apps/v3": individual served version : apps/v3 must be included in decodableVersions : [apps/v2]',
      'status.commonEncodingVersion: Invalid value: "null": the common encoding version is apps/v1',
    ]);
    assert.deepEqual(statusValidate({ storageVersions: [{ apiServerID: 'a1', encodingVersion: '/v1', decodableVersions: ['/v1'] }] }), [
      'status.storageVersions[0].encodingVersion: Invalid value: "/v1": group part: must be non-empty',
      'status.storageVersions[0].decodableVersions[0]: Invalid value: "/v1": group part: must be non-empty',
      'status.commonEncodingVersion: Invalid value: "null": the common encoding version is /v1',
    ]);
    assert.deepEqual(statusValidate({ commonEncodingVersion: 'v1' }), [
      'status.commonEncodingVersion: Invalid value: "v1": should be nil if servers do not agree on the same encoding version, or if there is no server reporting the supported versions yet',
    ]);
  });
  it('conditions: unique types, reason and message required (kube indexes them under status)', () => {
    assert.deepEqual(statusValidate({ conditions: [{ type: 'AllEncodingVersionsEqual', status: 'True', reason: 'r', message: 'm' }, { type: 'AllEncodingVersionsEqual', status: 'True' }] }), [
      'status[1].type: Invalid value: "AllEncodingVersionsEqual": the type of the condition is not unique, it also appears in conditions[0]',
      'status[1].reason: Required value: reason cannot be empty',
      'status[1].message: Required value: message cannot be empty',
    ]);
  });
  it('status cleared on create, kept on update; spec and status always written', () => {
    const o = sv('apps.deployments', { commonEncodingVersion: 'apps/v1' });
    delete o.spec;
    strategy.prepareForCreate(ctx, o);
    strategy.canonicalize?.(o);
    assert.deepEqual([o.spec, o.status], [{}, {}]);
    assert.equal(strategy.allowUnconditionalUpdate, false);
  });
  it('table: NAME COMMONENCODINGVERSION STORAGEVERSIONS AGE', () => {
    const o = sv('apps.deployments', { storageVersions: ['a', 'b', 'c', 'd'].map((id) => ({ apiServerID: id, encodingVersion: 'apps/v1' })) });
    assert.deepEqual(storageVersions.table.map((c) => c.cell(o, 0)).slice(0, 3), ['apps.deployments', '<unset>', 'a=apps/v1,b=apps/v1,c=apps/v1 + 1 more...']);
    assert.deepEqual(storageVersions.table.map((c) => c.cell(sv('apps.deployments'), 0))[2], '<unset>');
  });
});
