import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { canonicalQuantity, roundUpResourceList, validateContainerResourceName, validateQuotaResourceName, validateResourceQuantityValue } from './resource-names.ts';

describe('canonicalQuantity (Quantity.String)', () => {
  const cases: [string, string][] = [
    ['1.5', '1500m'], ['1000m', '1'], ['0.5', '500m'], ['2000', '2k'], ['1024Mi', '1Gi'], ['1536', '1536'], ['1.5Ki', '1536'],
    ['0.5Ki', '512'], ['1e3', '1e3'], ['-1', '-1'], ['0', '0'], ['100m', '100m'], ['bogus', 'bogus'],
  ];
  for (const [input, want] of cases) it(`${input} is ${want}`, () => assert.equal(canonicalQuantity(input), want));
});

describe('resource name and value checks of the core helpers', () => {
  const p = fieldPath('x');
  const cases: { name: string; errs: () => ReturnType<typeof validateQuotaResourceName>; want: string[] }[] = [
    { name: 'quota name not standard', errs: () => validateQuotaResourceName('bogus', p),
      want: ['x: Invalid value: "bogus": must be a standard resource type or fully qualified', 'x: Invalid value: "bogus": must be a standard resource for quota'] },
    { name: 'quota name prefixed', errs: () => validateQuotaResourceName('count/deployments.apps', p), want: [] },
    { name: 'container name storage', errs: () => validateContainerResourceName('storage', p), want: ['x: Invalid value: "storage": must be a standard resource for containers'] },
    { name: 'container huge pages', errs: () => validateContainerResourceName('hugepages-2Mi', p), want: [] },
    { name: 'negative, shown canonical', errs: () => validateResourceQuantityValue('cpu', '-0.5', p), want: ['x: Invalid value: "-500m": must be greater than or equal to 0'] },
    { name: 'fractional pods', errs: () => validateResourceQuantityValue('pods', '1.5', p), want: ['x: Invalid value: "1500m": must be an integer'] },
    { name: 'fractional extended resource', errs: () => validateResourceQuantityValue('example.com/gpu', '500m', p), want: ['x: Invalid value: "500m": must be an integer'] },
    { name: 'fractional cpu is fine', errs: () => validateResourceQuantityValue('cpu', '500m', p), want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(c.errs().map(formatFieldError), c.want));
});

describe('roundUpResourceList (SetDefaults_ResourceList)', () => {
  it('rounds finer values up to milli-units and keeps the rest as written', () => {
    const list: Record<string, string> = { a: '1n', b: '1u', c: '1e-9', d: '100m', e: '+1', f: '-1n' };
    roundUpResourceList(list);
    assert.deepEqual(list, { a: '1m', b: '1m', c: '1e-3', d: '100m', e: '+1', f: '-1m' });
  });
});
