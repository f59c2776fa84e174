// The scale checks of kube's custom resource validator (validator.go ValidateScaleSpec/Status),
// with the field paths written as the CRD's JSONPaths and unstructured's accessor errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { validateScaleSpec, validateScaleStatus } from './scale-validation.ts';

const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };

describe('custom resource scale validation', () => {
  const cases: { name: string; obj: unknown; want: string[] }[] = [
    { name: 'valid', obj: { spec: { replicas: 3 }, status: { replicas: 2, selector: 'a=b' } }, want: [] },
    { name: 'absent fields', obj: { spec: {} }, want: [] },
    { name: 'negative spec replicas', obj: { spec: { replicas: -1 } }, want: ['.spec.replicas: Invalid value: -1: should be a non-negative integer'] },
    { name: 'spec replicas over int32', obj: { spec: { replicas: 2147483648 } },
      want: ['.spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647'] },
    { name: 'spec replicas not an integer', obj: { spec: { replicas: 1.5 } },
      want: ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64'] },
    { name: 'spec not an object', obj: { spec: 'x' },
      want: ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected map[string]interface {}'] },
    { name: 'negative status replicas', obj: { status: { replicas: -2 } }, want: ['.status.replicas: Invalid value: -2: should be a non-negative integer'] },
    { name: 'selector not a string', obj: { status: { selector: 5 } },
      want: ['.status.selector: Invalid value: "": .status.selector accessor error: 5 is of the type int64, expected string'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = [...validateScaleSpec(c.obj, scale), ...validateScaleStatus(c.obj, scale)].map(formatFieldError);
      assert.deepEqual(got, c.want);
    });
  }
  it('no scale subresource: no checks', () => {
    assert.deepEqual([...validateScaleSpec({ spec: { replicas: -1 } }, undefined), ...validateScaleStatus({}, undefined)], []);
  });
});
