import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { ControllerRevision } from '../v1/types.ts';
import { controllerRevisions } from './controllerrevision.ts';

const ctx = systemContext('default');
const rev = (extra: Partial<ControllerRevision> = {}): ControllerRevision =>
  ({ metadata: { name: 'web-5d8f', namespace: 'default' }, data: { spec: {} }, revision: 2, ...extra });

describe('controllerrevisions', () => {
  const cases: { name: string; obj: ControllerRevision; want: string[] }[] = [
    { name: 'valid', obj: rev(), want: [] },
    { name: 'missing data', obj: rev({ data: undefined }), want: ['data: Required value: data is mandatory'] },
    // ValidateControllerRevisionCreate: the raw data must decode to a JSON object
    { name: 'data a string', obj: rev({ data: 'x' as unknown as ControllerRevision['data'] }), want: ['data: Required value: data must be a valid JSON object'] },
    { name: 'data a list', obj: rev({ data: [1] as unknown as ControllerRevision['data'] }), want: ['data: Required value: data must be a valid JSON object'] },
    { name: 'negative revision', obj: rev({ revision: -1 }), want: ['revision: Invalid value: -1: must be greater than or equal to 0'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(controllerRevisions.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('writes revision 0 as Go does (no omitempty)', () => {
    const r = rev({ revision: undefined as unknown as number });
    controllerRevisions.goZeroValues(r);
    assert.equal(r.revision, 0);
  });

  it('data is immutable', () => {
    assert.deepEqual(controllerRevisions.strategy.validateUpdate(ctx, rev({ data: { x: 1 } }), rev()).map(formatFieldError),
      ['data: Invalid value: {"x":1}: field is immutable']);
  });

  const owners: { name: string; obj: ControllerRevision; want: string }[] = [
    { name: 'no controller', obj: rev(), want: '<none>' },
    { name: 'apps controller', obj: rev({ metadata: { name: 'r', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u', controller: true }] } }),
      want: 'statefulset.apps/web' },
    { name: 'core owner', obj: rev({ metadata: { name: 'r', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: true }] } }),
      want: 'pod/p' },
  ];
  for (const o of owners) {
    it(`controller column: ${o.name}`, () => {
      assert.deepEqual(controllerRevisions.table.filter((c) => c.name !== 'Age').map((c) => c.cell(o.obj, 0)), [o.obj.metadata.name, o.want, 2]);
    });
  }
});
